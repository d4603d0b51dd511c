# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""dpuv-sim: the command behind `make sim`, `make list` and `make lint`."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from dpuv.harness import (benches, coverage, formal, lint, mutation, report, report_page, runner, shards, suite, synth,
                          testplan, timeouts, toolchain)


def _reported(status: int, results: Path) -> int:
    """A command's status, once results/report/index.html shows what the command left in `results`."""
    print(f"report: {report_page.write(benches.PROJECT_ROOT / results)}", flush=True)
    return status


def _parse_parameters(text: str, bench: benches.Bench) -> dict[str, int]:
    known = sorted({name for parameter_set in bench.parameter_sets for name in parameter_set})
    parameters = {}
    for item in text.split():
        name, _, value = item.partition("=")
        if name not in known or not value:
            raise SystemExit(f"error: PARAMS entry {item!r} is not NAME=VALUE with NAME one of: {', '.join(known)}")
        try:
            parameters[name] = int(value, 0)
        except ValueError:
            raise SystemExit(f"error: PARAMS value {value!r} for {name} is not an integer") from None
    return parameters


def _parameter_sets(bench: benches.Bench, overrides: dict[str, int]) -> list[dict[str, int]]:
    unique = []
    for parameter_set in bench.parameter_sets:
        merged = {**parameter_set, **overrides}
        if merged not in unique:
            unique.append(merged)
    return unique


def _run_bench(arguments) -> int:
    try:
        bench = benches.find(arguments.tb)
        toolchain.find(arguments.sim)
    except (KeyError, toolchain.ToolchainError) as error:
        raise SystemExit(f"error: {error.args[0]}") from None
    results = []
    parameter_sets = _parameter_sets(bench, _parse_parameters(arguments.params, bench))
    for parameters in parameter_sets:
        print(f"== {bench.name} on {arguments.sim} {parameters} seed {arguments.seed}", flush=True)
        environment = {}
        if arguments.pcap:
            pcap = Path(arguments.pcap).resolve()
            if len(parameter_sets) > 1:  # one capture per parameter set
                pcap = pcap.with_name(f"{pcap.stem}-{runner.parameter_slug(parameters)}{pcap.suffix}")
            environment["DPUV_PCAP"] = str(pcap)
            print(f"frames on the wire go to {pcap} (open with `tshark -r {pcap}` or Wireshark)")
        try:
            result = runner.run(bench, parameters, arguments.sim, seed=arguments.seed, waves=arguments.waves,
                                testcase=arguments.testcase or None, quiet=False, environment=environment)
        except toolchain.ToolchainError as error:
            raise SystemExit(f"error: {error.args[0]}") from None
        if result.waves:
            print(f"waves: {result.waves}  (open with `gtkwave {result.waves}` or `surfer {result.waves}`)")
        results.append(result)
    print(report.summary(results))
    return 0 if all(result.passed for result in results) else 1


def _regress(arguments) -> int:
    try:
        toolchain.find(arguments.sim)
    except toolchain.ToolchainError as error:
        raise SystemExit(f"error: {error.args[0]}") from None
    started = time.monotonic()
    results = []
    for bench in benches.BENCHES:
        if not bench.in_default_regression:
            continue
        for parameters in bench.parameter_sets:
            print(f"== {bench.name} on {arguments.sim} {parameters}", flush=True)
            result = runner.run(bench, parameters, arguments.sim, seed=arguments.seed)
            outcome = "passed" if result.passed else "FAILED"
            print(f"   {len(result.outcomes)} tests {outcome} (seed {result.seed})", flush=True)
            results.append(result)
    print(report.summary(results, elapsed=time.monotonic() - started))
    return 0 if all(result.passed for result in results) else 1


def _chosen_scenarios(arguments) -> list:
    """Every scenario, or only those named with --scenario (an unknown name is an error)."""
    from dpuv.waves import regress as waveregress

    scenarios = waveregress.load_scenarios()
    if not arguments.scenario:
        return scenarios
    unknown = sorted(set(arguments.scenario) - {scenario.name for scenario in scenarios})
    if unknown:
        raise SystemExit(f"error: no wave scenario {', '.join(unknown)}")
    return [scenario for scenario in scenarios if scenario.name in arguments.scenario]


def _waves_check(arguments) -> int:
    from dpuv.waves import regress as waveregress

    simulators = arguments.sim or waveregress.simulators_to_check()
    outcomes = []
    for scenario in _chosen_scenarios(arguments):
        for simulator in simulators:
            outcome = waveregress.check(scenario, simulator)
            print(waveregress.describe(outcome), flush=True)
            outcomes.append(outcome)
    failed = sum(not outcome.passed for outcome in outcomes)
    print(f"{len(outcomes) - failed} passed, {failed} failed")
    return 1 if failed else 0


def _waves_update(arguments) -> int:
    from dpuv.waves import regress as waveregress

    for scenario in _chosen_scenarios(arguments):
        path = waveregress.update(scenario)
        print(f"wrote {path.relative_to(benches.PROJECT_ROOT)} ({path.stat().st_size} bytes)")
    print("review the goldens' diff, then run `make waves-check` to confirm every simulator agrees")
    return 0


def _reduce(arguments) -> int:
    from dpuv.harness import reduce_job

    try:
        toolchain.find(arguments.sim)
        report = reduce_job.run(arguments.inputs, arguments.dtype, arguments.op, arguments.out,
                                arguments.flush, arguments.sim, arguments.transport, arguments.nodes, arguments.width)
    except (reduce_job.JobError, toolchain.ToolchainError) as error:
        raise SystemExit(f"error: {error}") from None
    print(f"{report['ranks']} ranks over {report['transport']}, {report['elements']} {report['dtype']} elements, "
          f"op {report['op']}: {report['collective_cycles']} cycles, busbw {report['busbw_gbytes_per_s_at_250mhz']} GB/s "
          f"({report['busbw_share_of_link']:.1%} of the link: {report['link']})")
    print(f"NaN results: {report['nan_elements']}, "
          f"differences from the numpy model: {report['mismatches_against_model']}")
    print(f"wrote {report['output']} and {arguments.out.removesuffix('.npy')}.json")
    return 0


# The engine builds `make board ENGINES=...` offers (board_core's ENGINE_AREA)
BOARD_ENGINES = {"none": 0, "rdma-pair": 1, "ring": 3}


def _board(arguments) -> int:
    environment = {"DPUV_BOARD_PORT": str(arguments.port), "DPUV_BOARD_IDLE_SECONDS": str(arguments.idle_seconds)}
    if arguments.port_file:
        environment["DPUV_BOARD_PORT_FILE"] = arguments.port_file
    virtual_board = benches.tool("virtual_board")
    # Which build: the parameter set whose engine area is the one asked for
    area = BOARD_ENGINES[arguments.engines]
    parameters = next(chosen for chosen in virtual_board.parameter_sets if chosen.get("ENGINE_AREA", 0) == area)
    try:
        result = runner.run(virtual_board, parameters, arguments.sim, seed=1,
                            quiet=arguments.quiet, record=False, environment=environment)
    except toolchain.ToolchainError as error:
        raise SystemExit(f"error: {error.args[0]}") from None
    if not result.passed:
        print(result.failure_report())
    return 0 if result.passed else 1


def _list(_arguments) -> int:
    width = max(len(bench.name) for bench in benches.BENCHES)
    for area in benches.AREAS:
        print(f"tb/{area.name}")
        for bench in (bench for bench in benches.BENCHES if bench.area == area.name):
            sets = ", ".join(runner.parameter_slug(parameters) for parameters in bench.parameter_sets)
            print(f"  {bench.name:{width}} {bench.description}\n  {'':{width}} top {bench.toplevel}; "
                  f"parameter sets: {sets}")
    simulators = toolchain.available()
    print("\nsimulators: " + (", ".join(f"{s.name} {s.version_text}" for s in simulators) or "none found"))
    return 0


def _shard(text: str) -> shards.Shard:
    try:
        return shards.Shard.parse(text)
    except shards.ShardError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="dpuv-sim", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    run_parser = commands.add_parser("run", help="run one testbench")
    run_parser.add_argument("--tb", required=True)
    run_parser.add_argument("--sim", default=toolchain.DEFAULT_SIMULATOR)
    run_parser.add_argument("--seed", type=int)
    run_parser.add_argument("--waves", action="store_true")
    run_parser.add_argument("--testcase", default="")
    run_parser.add_argument("--params", default="", help='parameter overrides, e.g. "DATA_WIDTH=512"')
    run_parser.add_argument("--pcap", help="benches with a network wire write every frame on it to this pcap file")
    run_parser.set_defaults(handler=_run_bench)

    regress_parser = commands.add_parser("regress", help="run the default regression and summarise it")
    regress_parser.add_argument("--sim", default=toolchain.DEFAULT_SIMULATOR)
    regress_parser.add_argument("--seed", type=int)
    regress_parser.set_defaults(handler=_regress)

    waves_check_parser = commands.add_parser("waves-check", help="compare waveform scenarios with their goldens")
    waves_check_parser.add_argument("--sim", action="append", choices=toolchain.SIMULATORS,
                                    help="simulator to check (repeatable); default every one installed")
    waves_check_parser.set_defaults(handler=_waves_check)
    waves_update_parser = commands.add_parser("waves-update", help="re-record the waveform goldens")
    waves_update_parser.set_defaults(handler=_waves_update)
    for waves_parser in (waves_check_parser, waves_update_parser):
        waves_parser.add_argument("--scenario", action="append",
                                  help="only this scenario (repeatable); default every one")

    reduce_parser = commands.add_parser("reduce", help="all-reduce your .npy tensors through the RTL ring")
    reduce_parser.add_argument("--inputs", nargs="+", required=True, help="one .npy per rank")
    reduce_parser.add_argument("--dtype", required=True)
    reduce_parser.add_argument("--op", default="sum")
    reduce_parser.add_argument("--out", required=True)
    reduce_parser.add_argument("--flush", action="store_true", help="flush subnormals to zero")
    reduce_parser.add_argument("--transport", default="ring", help="ring (reduction ranks on bare links) or rdma "
                               "(DPU nodes over RoCEv2 and the switch)")
    reduce_parser.add_argument("--nodes", type=int, help="with rdma: the node count, which must equal the inputs'")
    reduce_parser.add_argument("--width", type=int, default=512, help="with rdma: the nodes' bus width, 512 or 64 (the ring transport's is always 512)")
    reduce_parser.add_argument("--sim", default=toolchain.DEFAULT_SIMULATOR)
    reduce_parser.set_defaults(handler=_reduce)

    board_parser = commands.add_parser("board", help="run the virtual board: board_core with its link on TCP")
    board_parser.add_argument("--sim", default=toolchain.DEFAULT_SIMULATOR)
    board_parser.add_argument("--port", type=int, default=5555, help="TCP port on 127.0.0.1 (0: any free one)")
    board_parser.add_argument("--port-file", help="write the port here once the board listens")
    board_parser.add_argument("--idle-seconds", type=float, default=300, help="stop after this long without traffic")
    board_parser.add_argument("--quiet", action="store_true", help="simulator output to the log file only")
    board_parser.add_argument("--engines", choices=sorted(BOARD_ENGINES), default="none",
                              help="the engines the board build carries beside the self-test")
    board_parser.set_defaults(handler=_board)

    synth_parser = commands.add_parser("synth", help="open synthesis of every target against its budget")
    synth_parser.add_argument("--target", action="append", help="synthesise only this target (repeatable)")
    synth_parser.add_argument("--json", type=Path, default=Path("results/synth.json"), help="also write the figures here")
    synth_parser.add_argument("--jobs", type=int, default=2, help="targets synthesised at a time (one core each)")
    synth_parser.set_defaults(handler=lambda arguments: synth.main(arguments.target, arguments.json, arguments.jobs))

    formal_parser = commands.add_parser("formal", help="SymbiYosys proofs of tb/formal/proofs.toml")
    formal_parser.add_argument("--proof", action="append", help="run only this proof (repeatable)")
    formal_parser.add_argument("--broken", action="store_true",
                               help="run each proof on its deliberately broken block: each must fail, with a trace")
    formal_parser.add_argument("--results", type=Path, default=suite.RESULTS,
                               help="record them in RESULTS/formal.json (traces under RESULTS/report/formal) and the report")
    formal_parser.set_defaults(handler=lambda arguments: _reported(
        formal.main(arguments.proof, arguments.broken, benches.PROJECT_ROOT / arguments.results), arguments.results))

    coverage_parser = commands.add_parser("coverage", help="the Verilator bench cases with code coverage, and its report")
    coverage_parser.add_argument("--area", help="only this engine's benches (tb/<area>)")
    coverage_parser.add_argument("--jobs", type=int, default=2, help="pytest-xdist workers")
    coverage_parser.add_argument("--lcov", action="store_true", help="also write results/coverage.info (verilator_coverage)")
    coverage_parser.add_argument("--report-only", action="store_true", help="only merge and report the last run's data")
    coverage_parser.set_defaults(handler=lambda arguments: _reported(
        coverage.report(lcov=arguments.lcov) if arguments.report_only
        else coverage.run(arguments.area, arguments.jobs, arguments.lcov), suite.RESULTS))

    mutation_parser = commands.add_parser("mutation", help="random mutants of one RTL area against its benches: the score")
    mutation_parser.add_argument("--area", required=True, help="the RTL folder (rtl/<area>)")
    mutation_parser.add_argument("--count", type=int, default=30, help="mutants to draw")
    mutation_parser.add_argument("--seed", type=int, default=1, help="the draw's seed")
    mutation_parser.add_argument("--mutant", action="append", default=[],
                                 help="run only this mutant (an id a report printed, file:line:column:kind); repeatable")
    mutation_parser.add_argument("--jobs", type=int, default=1, help="mutants run side by side (one simulation each)")
    mutation_parser.add_argument("--sim", choices=("verilator", "icarus"), default="verilator",
                                 help="the simulator the mutants run on")
    mutation_parser.set_defaults(handler=lambda arguments: _reported(
        mutation.main(arguments.area, arguments.count, arguments.seed, arguments.mutant, arguments.jobs, arguments.sim),
        suite.RESULTS))

    testplan_parser = commands.add_parser("testplan", help="hold a suite run to the testplans: testpoints, coverage bins")
    testplan_parser.add_argument("results", type=Path, nargs="?", default=suite.RESULTS,
                                 help="the results folder of a whole run (default results)")
    testplan_parser.add_argument("--output", type=Path, default=suite.RESULTS / "report",
                                 help="where testplan.json and testplan.html go")
    testplan_parser.set_defaults(handler=lambda arguments: _reported(testplan.main(arguments.results, arguments.output),
                                                                      arguments.results))

    suite_parser = commands.add_parser("suite", help="the test suite (make test / make regress), whole or one shard")
    suite_parser.add_argument("--jobs", type=int, default=2, help="pytest-xdist workers")
    suite_parser.add_argument("--shard", type=_shard, help="k/N: run the k-th of N duration-balanced shards")
    suite_parser.add_argument("--seeds", type=int, default=1, help="seeds per bench case (the regress tier: 8)")
    suite_parser.add_argument("--regress", action="store_true", help="the regress tier: also the long sweeps")
    suite_parser.add_argument("--results", type=Path, default=suite.RESULTS, help="where results go (default results)")
    suite_parser.add_argument("--builds", type=Path, help="build folder (default sim_build)")
    suite_parser.add_argument("pytest_arguments", nargs="*", help="more pytest arguments, after --")
    suite_parser.set_defaults(handler=lambda arguments: _reported(
        suite.run(arguments.jobs, arguments.shard, arguments.seeds, arguments.pytest_arguments, arguments.results,
                  arguments.builds, arguments.regress),
        arguments.results / arguments.shard.name if arguments.shard else arguments.results))
    merge_parser = commands.add_parser("merge", help="one JUnit file and one report from shard results")
    merge_parser.add_argument("shard_dirs", nargs="+", type=Path, help="results/shard-k-of-N folders")
    merge_parser.add_argument("--output", type=Path, default=suite.RESULTS, help="where junit.xml goes")
    merge_parser.set_defaults(handler=lambda arguments: _reported(suite.merge(arguments.shard_dirs, arguments.output),
                                                                   arguments.output))
    durations_parser = commands.add_parser("durations", help="refresh tests/durations.json from JUnit files")
    durations_parser.add_argument("junit_files", nargs="+", type=Path)
    durations_parser.set_defaults(handler=lambda arguments: suite.durations(arguments.junit_files))
    timeouts_parser = commands.add_parser("timeouts", help="set each cocotb test's timeout from a run's simulated times")
    timeouts_parser.add_argument("results", type=Path, nargs="?", default=suite.RESULTS,
                                 help="the results folder of a whole run (default results)")
    timeouts_parser.set_defaults(handler=lambda arguments: timeouts.main(arguments.results))

    commands.add_parser("list", help="list testbenches").set_defaults(handler=_list)
    commands.add_parser("lint", help="verilator --lint-only -Wall on every RTL top").set_defaults(
        handler=lambda _arguments: lint.main())

    arguments = parser.parse_args(argv)
    return arguments.handler(arguments)


if __name__ == "__main__":
    sys.exit(main())
