"""Every cocotb testbench in dpuv: one entry feeds `make sim`, `make list` and pytest alike.

A bench names its HDL top, the file lists it needs, the cocotb test module, and the parameter
sets it must pass with. Adding a testbench means adding one entry here.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Bench:
    name: str
    toplevel: str
    test_dir: str
    file_lists: tuple[str, ...]
    parameter_sets: tuple[dict[str, int], ...]
    description: str
    # Build parameters stamped from the checkout (git hash) rather than fixed here
    stamped: bool = False
    # Part of the default regression that `make sim` runs
    in_default_regression: bool = True
    # The cocotb modules in test_dir, comma separated; by default test_<name>
    module: str = ""
    # Compile Verilator's C++ at -O0: designs with hundreds of floating-point lanes otherwise
    # take minutes to build, far longer than their short simulations run
    quick_compile: bool = False
    # Runs for minutes per parameter set: the test suite starts these first, so that its two
    # workers finish together instead of one waiting on a long tail
    heavy: bool = False

    @property
    def test_module(self) -> str:
        return self.module or f"test_{self.name}"

    def built_from(self, file_lists: tuple[str, ...], name: str) -> "Bench":
        """The same tests on other sources (a mutated RTL copy, say), in a build folder of its own."""
        return dataclasses.replace(self, name=name, module=self.test_module, file_lists=tuple(file_lists))

    def sources(self) -> list[Path]:
        """Every source file of the bench, in file-list order, waiver files included."""
        files: list[Path] = []
        for file_list in self.file_lists:
            list_path = PROJECT_ROOT / file_list  # an absolute file_list stays absolute
            for line in list_path.read_text().splitlines():
                entry = line.split("#", 1)[0].strip()
                if entry:
                    source = (list_path.parent / entry).resolve()
                    if source not in files:
                        files.append(source)
        return files


COMMON = "rtl/common/common.f"
TOP = "rtl/top/top.f"
ALLREDUCE = "rtl/allreduce/allreduce.f"
BRINGUP = "rtl/bringup/bringup.f"
RDMA = "rtl/rdma/rdma.f"
RDMA_TB = "tb/rdma/pair.f"
PCIE = "rtl/pcie/pcie.f"
STORAGE = "rtl/storage/storage.f"
# Testbench-only wrappers that give each port of a multi-port design its own named bus
COMMON_TB = "tb/common/wrappers.f"
# Port counts off and on a power of two (with 1-bit master IDs at four ports)
ARBITER_SETS = ({"DATA_WIDTH": 64, "PORTS": 3}, {"DATA_WIDTH": 512, "PORTS": 2},
                {"DATA_WIDTH": 32, "PORTS": 4, "S_ID_WIDTH": 1})
WIDTHS = ({"DATA_WIDTH": 64}, {"DATA_WIDTH": 512})
# The simulated clock is 250 MHz: 16 and 13 clocks per UART bit (an even and an odd divisor)
BOARD_TOP_UART_SETS = tuple({"CLOCK_FREQ_KHZ": 250000, "BAUD_RATE": 250_000_000 // clocks, "SIMULATION": 1}
                            for clocks in (16, 13))

BENCHES = (
    Bench("axis_skid_buffer", "axis_skid_buffer", "tb/common", (COMMON,), WIDTHS,
          "AXI4-Stream skid buffer: no beat lost or duplicated, one beat per cycle"),
    Bench("axis_fifo", "axis_fifo", "tb/common", (COMMON,),
          tuple({**width, "FRAME_FIFO": frame, "DROP_BAD_FRAME": frame} for width in WIDTHS for frame in (0, 1)),
          "AXI4-Stream FIFO, plain and packet mode (bad and oversize frames dropped)"),
    Bench("axis_arb_mux", "axis_arb_mux", "tb/common", (COMMON,),
          tuple({**width, "S_COUNT": 4} for width in WIDTHS) + ({"DATA_WIDTH": 64, "S_COUNT": 3},),
          "Round-robin frame multiplexer: frames intact, fair rotation, tid = source"),
    Bench("crc32", "crc32", "tb/common", (COMMON,), WIDTHS,
          "CRC-32 with byte enables against zlib.crc32"),
    Bench("traffic_block", "traffic_block", "tb/common", (COMMON,), WIDTHS,
          "Self-test traffic generator and checker: pattern model, every path fault counted once"),
    Bench("axi_dma_write", "axi_dma_write", "tb/common", (COMMON,),
          ({"DATA_WIDTH": 64}, {"DATA_WIDTH": 512}, {"DATA_WIDTH": 64, "MAX_BURST_BEATS": 16}),
          "AXI4 DMA writer: any byte address, 4 KiB and burst limits, strobes, error status per command"),
    Bench("axi_dma_read", "axi_dma_read", "tb/common", (COMMON,),
          ({"DATA_WIDTH": 64}, {"DATA_WIDTH": 512}, {"DATA_WIDTH": 64, "MAX_BURST_BEATS": 16},
           {"DATA_WIDTH": 64, "MAX_BURST_BEATS": 16, "BUFFER_BEATS": 32}),
          "AXI4 DMA reader: any byte address, 4 KiB and burst limits, frames cut exactly, error flag per frame"),
    Bench("axi_read_arbiter", "axi_read_arbiter_wrap", "tb/common", (COMMON, COMMON_TB),
          ARBITER_SETS,
          "AXI4 read arbiter: bytes exact per port, addresses unchanged with the port in the ID, round-robin turns"),
    Bench("axi_write_arbiter", "axi_write_arbiter_wrap", "tb/common", (COMMON, COMMON_TB),
          ARBITER_SETS,
          "AXI4 write arbiter: bytes exact per port, bursts whole in address order, round-robin turns"),
    Bench("perf_counters", "perf_counters", "tb/common", (COMMON,), ({"KEEP_WIDTH": 8}, {"KEEP_WIDTH": 64}),
          "Performance counters against a cycle-by-cycle model"),
    Bench("allreduce_reducer", "allreduce_reducer", "tb/allreduce", (ALLREDUCE,),
          ({"DATA_WIDTH": 512}, {"DATA_WIDTH": 64}),
          "Streaming reducer: every dtype and op bit-exact against numpy, II=1, malformed input",
          quick_compile=True),
    Bench("allreduce_ring", "allreduce_ring", "tb/allreduce", (COMMON, ALLREDUCE),
          tuple({"RANKS": ranks, "DATA_WIDTH": 128, "BUFFER_BEATS": 256} for ranks in (2, 3, 4, 5, 8)),
          "Ring all-reduce of n ranks: identical bits on every rank, equal to the ordered model",
          stamped=True, quick_compile=True),
    Bench("allreduce_ring_bandwidth", "allreduce_ring", "tb/allreduce", (COMMON, ALLREDUCE),
          tuple({"RANKS": ranks, "DATA_WIDTH": 512, "BUFFER_BEATS": 16384} for ranks in (4, 8)),
          "Ring all-reduce at 512 bits, 1 MiB per rank: busbw and reducer utilisation from counters",
          stamped=True, module="test_allreduce_ring_bandwidth", quick_compile=True, heavy=True),
    Bench("board_core", "board_core", "tb/bringup", (COMMON, TOP, BRINGUP),
          ({"DATA_WIDTH": 64, "LINK_TIMEOUT_CYCLES": 256},),
          "Core registers over the framed board link: errors, malformed frames, noisy and silent links",
          stamped=True),
    Bench("board_top", "board_top", "tb/bringup", (COMMON, TOP, BRINGUP), BOARD_TOP_UART_SETS,
          "Pin-level board top: the link through the UART, bit timing, clock drift, framing errors, self-test",
          stamped=True),
    Bench("roce_tx_builder", "roce_tx_builder", "tb/rdma", (COMMON, RDMA), WIDTHS,
          "RoCEv2 frame builder: byte-exact against the spec model, scapy agrees, one beat per clock"),
    Bench("dpuv_core", "dpuv_core", "tb/top", (COMMON, TOP), WIDTHS,
          "Core top: ID block, block chain, register bus errors, loopback counters vs targets",
          stamped=True),
    Bench("rdma_engine", "rdma_engine", "tb/rdma", (COMMON, RDMA), WIDTHS,
          "RC engine against the Python QP: responder and requester, WRITE/READ/SEND byte-exact through loss, "
          "PSN rules, bad keys, doorbells, completions", module="test_rdma_responder,test_rdma_requester"),
    Bench("rdma_engine_pair", "rdma_engine_pair", "tb/rdma", (COMMON, RDMA, RDMA_TB), WIDTHS,
          "Two RC engines back to back over the Python wire: WRITE/READ both ways at once, exactly once through loss"),
    # The largest build (64 I/O queue pairs) runs every test too
    Bench("nvme_controller", "nvme_controller", "tb/storage", (COMMON, PCIE, STORAGE),
          ({"DATA_WIDTH": 512}, {"DATA_WIDTH": 256}, {"DATA_WIDTH": 512, "QUEUES": 65}),
          "NVMe controller over PCIe, host played by cocotbext-pcie: registers, admin and I/O queues, NVM commands, "
          "random traffic over every queue pair, disable mid-traffic, counters and figures"),
    Bench("roce_rx_parser", "roce_rx_parser", "tb/rdma", (COMMON, RDMA), WIDTHS,
          "RoCEv2 receive parser: every opcode against the model, each malformed frame dropped with its cause, overflow"),
)


# Not a regression bench: `make board` runs it until its client leaves.
VIRTUAL_BOARD = Bench("virtual_board", "board_top", "tb/bringup", (COMMON, TOP, BRINGUP), BOARD_TOP_UART_SETS[:1],
                      "Virtual board: the board top with its UART bridged to a TCP port", stamped=True,
                      in_default_regression=False, module="test_virtual_board")


def find(name: str) -> Bench:
    for bench in BENCHES:
        if bench.name == name:
            return bench
    raise KeyError(f"unknown testbench {name!r}; choose one of: {', '.join(b.name for b in BENCHES)}")
