# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The DPU cluster's testbench: the cluster's one register bus, every node's memory reached
directly (bulk data never goes through the simulator's Python per beat), the switch's inputs
(addresses and faults) and counters."""

from __future__ import annotations

import random

import cocotb
from cocotb.triggers import ClockCycles, RisingEdge

from dpuv.drivers import collective
from dpuv.regs.cocotb_axil import AxiLiteAccess
from dpuv.tb.pcap_capture import WireCapture
from dpuv.tb.ram_backdoor import RamBackdoor
from dpuv.tb.testbench import CLOCK_PERIOD_NS, build_parameters, quiet, start_clock_and_reset

NODE_WINDOW_BYTES = 1 << 16
# The cluster's links: 100 Gb/s Ethernet (the dpu_cluster default LINE_RATE_MBPS)
LINE_RATE_BYTES_PER_NS = 100e9 / 8 / 1e9
SWITCH_COUNTERS = ("frames_forwarded", "bytes_forwarded", "tail_drops", "frames_lost", "frames_duplicated",
                   "frames_corrupted", "frames_reordered", "frames_marked", "unknown_destination")
# The RDMA engines clear their QP context RAMs after a reset, a QP a cycle
QP_CLEAR_CYCLES = 300
FAULTS = ("loss_threshold", "duplicate_threshold", "corrupt_threshold", "reorder_threshold")


class ClusterTB:
    def __init__(self, dut, rng: random.Random):
        self.dut = dut
        self.rng = rng
        parameters = build_parameters()
        self.nodes_count = int(parameters.get("NODES", 4))
        self.data_width = int(parameters.get("DATA_WIDTH", 64))
        self.bus = AxiLiteAccess(dut, dut.clk, dut.rst)
        quiet(self.bus.master.write_if, self.bus.master.read_if)
        self.memories = [RamBackdoor(dut.node_gen[rank].memory_inst.memory, self.data_width // 8)
                         for rank in range(self.nodes_count)]
        self.nodes: list[collective.Node] = []
        macs = 0
        for rank in range(self.nodes_count):
            macs |= int(collective.node_mac(rank).replace(":", ""), 16) << (48 * rank)
        dut.port_mac.value = macs
        dut.seed.value = rng.getrandbits(32)
        dut.stall_collective_memory.value = 0
        dut.node_reset.value = 0
        for name in ("ecn_enable", "ecn_kmin_bytes", "ecn_kmax_bytes", "ecn_pmax", "burst_length",
                     "reorder_hold_cycles") + FAULTS:
            getattr(dut, name).value = 0
        # `make sim ... PCAP=file`: every frame a node sends, as it enters the switch (so frames the
        # switch then loses are in it too, and their retransmissions after them)
        self.capture = WireCapture()
        if self.capture.path:
            cocotb.start_soon(self._capture_frames())

    async def _capture_frames(self) -> None:
        dut, beat = self.dut, self.data_width // 8
        frames = [bytearray() for _ in range(self.nodes_count)]
        cycle = 0
        while True:
            await RisingEdge(dut.clk)
            cycle += 1
            moving = int(dut.tx_tvalid.value) & int(dut.tx_tready.value)
            if not moving:
                continue
            data, keep, last = int(dut.tx_tdata.value), int(dut.tx_tkeep.value), int(dut.tx_tlast.value)
            for port in range(self.nodes_count):
                if not moving >> port & 1:
                    continue
                word = (data >> (port * beat * 8) & ((1 << beat * 8) - 1)).to_bytes(beat, "little")
                lanes = keep >> (port * beat) & ((1 << beat) - 1)
                frames[port] += word[:lanes.bit_length()]
                if last >> port & 1:
                    self.capture.record(bytes(frames[port]), cycle * CLOCK_PERIOD_NS)
                    frames[port] = bytearray()

    def save_capture(self) -> None:
        self.capture.save()

    async def reset(self) -> None:
        await start_clock_and_reset(self.dut.clk, self.dut.rst)
        await ClockCycles(self.dut.clk, QP_CLEAR_CYCLES)
        self.nodes = [await collective.find_node(self.bus, rank, NODE_WINDOW_BYTES, memory.write, memory.read)
                      for rank, memory in enumerate(self.memories)]

    async def reset_node(self, rank: int, cycles: int = 8) -> None:
        """Reset one node alone (its engines and its memory's controller; the memory keeps its
        contents), then wait until its RDMA engine has cleared its QP context RAM again."""
        self.dut.node_reset.value = 1 << rank
        await ClockCycles(self.dut.clk, cycles)
        self.dut.node_reset.value = 0
        await ClockCycles(self.dut.clk, QP_CLEAR_CYCLES)

    def set_faults(self, **thresholds: int) -> None:
        """Fault probabilities (out of 65536) on every egress port, e.g. loss_threshold=655."""
        for name, value in thresholds.items():
            getattr(self.dut, name).value = sum(value << (16 * port) for port in range(self.nodes_count))

    def switch_counters(self) -> dict[str, list[int]]:
        counters = {}
        for name in SWITCH_COUNTERS:
            packed = int(getattr(self.dut, name).value)
            counters[name] = [(packed >> (32 * port)) & 0xFFFFFFFF for port in range(self.nodes_count)]
        return counters
