# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The DPU cluster's testbench: the cluster's one register bus, every node's memory reached
directly (bulk data never goes through the simulator's Python per beat), the switch's inputs
(addresses and faults) and counters."""

from __future__ import annotations

import collections
import random

import cocotb
import numpy as np
from cocotb.triggers import ClockCycles, RisingEdge

from dpuv.drivers import collective
from dpuv.models.reduction import random_vectors, ring_allreduce
from dpuv.models.roce_packet import RocePacket, parse_frame
from dpuv.regs.cocotb_axil import AxiLiteAccess
from dpuv.tb.pcap_capture import WireCapture
from dpuv.tb.ram_backdoor import RamBackdoor
from dpuv.tb.testbench import CLOCK_PERIOD_NS, CycleCounter, build_parameters, quiet, start_clock_and_reset

NODE_WINDOW_BYTES = 1 << 16
# The cluster's links: 100 Gb/s Ethernet (the dpu_cluster default LINE_RATE_MBPS)
LINE_RATE_BYTES_PER_NS = 100e9 / 8 / 1e9
SWITCH_COUNTERS = ("frames_forwarded", "bytes_forwarded", "tail_drops", "frames_lost", "frames_duplicated",
                   "frames_corrupted", "frames_reordered", "frames_marked", "unknown_destination")
# The RDMA engines clear their QP context RAMs after a reset, a QP a cycle
QP_CLEAR_CYCLES = 300
# dpu_cluster's switch defaults (BUFFER_BYTES, LATENCY_CYCLES) and the largest frame a node sends
SWITCH_BUFFER_BYTES = 65536
SWITCH_LATENCY_CYCLES = 75
MAX_FRAME_BYTES = 4096 + 128
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
            cocotb.start_soon(self.watch_frames("tx", lambda port, frame, cycle: self.capture.record(
                frame, cycle * CLOCK_PERIOD_NS)))

    async def watch_frames(self, side: str, on_frame) -> None:
        """Calls on_frame(port, frame, cycle) for every whole frame on one side of the switch:
        "tx", what the nodes send into it (moved when valid and ready), or "rx", what it delivers
        to them (the nodes always take it)."""
        dut, beat = self.dut, self.data_width // 8
        tdata, tkeep, tvalid, tlast = (getattr(dut, f"{side}_{name}") for name in ("tdata", "tkeep", "tvalid", "tlast"))
        tready = dut.tx_tready if side == "tx" else None
        frames = [bytearray() for _ in range(self.nodes_count)]
        cycle = 0
        while True:
            await RisingEdge(dut.clk)
            cycle += 1
            moving = int(tvalid.value) & (int(tready.value) if tready is not None else -1)
            if not moving:
                continue
            # Bits as text, most significant first: a port's idle lanes and a beat's unused bytes
            # may be X on Icarus, so only the bytes a moving beat keeps are converted (and an X
            # among those fails)
            data, keep, last = str(tdata.value), str(tkeep.value), str(tlast.value)
            for port in range(self.nodes_count):
                if not moving >> port & 1:
                    continue
                lanes = bit_field(keep, port * beat, beat).bit_length()
                frames[port] += bit_field(data, port * beat * 8, lanes * 8).to_bytes(lanes, "little")
                if bit_field(last, port, 1):
                    on_frame(port, bytes(frames[port]), cycle)
                    frames[port] = bytearray()

    def save_capture(self) -> None:
        self.capture.save()

    async def reset(self) -> None:
        await start_clock_and_reset(self.dut.clk, self.dut.rst)
        await ClockCycles(self.dut.clk, QP_CLEAR_CYCLES)
        self.nodes = [await collective.find_node(self.bus, rank, NODE_WINDOW_BYTES, memory.write, memory.read)
                      for rank, memory in enumerate(self.memories)]

    async def reset_node(self, rank: int, cycles: int = 8, mid_frame: bool = False) -> int:
        """Reset one node alone (its engines and its memory's controller; the memory keeps its
        contents), then wait until its RDMA engine has cleared its QP context RAM again. With
        mid_frame, the reset comes the cycle after one of the node's frames has begun to leave.
        Returns how many frames marked bad (tuser on their last beat) the switch delivered
        meanwhile: a frame cut by the reset must arrive so, not run into the node's next one."""
        dut = self.dut
        if mid_frame:
            while True:
                await RisingEdge(dut.clk)
                moving = int(dut.tx_tvalid.value) & int(dut.tx_tready.value)
                if moving >> rank & 1 and not int(dut.tx_tlast.value) >> rank & 1:
                    break
        bad_frames = []
        watch = cocotb.start_soon(self._count_bad_frames_delivered(bad_frames))
        dut.node_reset.value = 1 << rank
        await ClockCycles(dut.clk, cycles)
        dut.node_reset.value = 0
        await ClockCycles(dut.clk, max(QP_CLEAR_CYCLES, self.frame_delivery_cycles))
        watch.cancel()
        return len(bad_frames)

    @property
    def frame_delivery_cycles(self) -> int:
        """Longer than any frame takes from entering the switch to leaving it: a full egress
        buffer ahead of it at one beat a cycle, its own longest frame (PMTU 4096), and the
        switch and cable latency."""
        beat = self.data_width // 8
        return (SWITCH_BUFFER_BYTES + MAX_FRAME_BYTES) // beat + SWITCH_LATENCY_CYCLES

    async def _count_bad_frames_delivered(self, bad_frames: list[int]) -> None:
        dut = self.dut
        while True:
            await RisingEdge(dut.clk)
            ending = int(dut.rx_tvalid.value) & int(dut.rx_tlast.value) & int(dut.rx_tuser.value)
            bad_frames += [port for port in range(self.nodes_count) if ending >> port & 1]

    def set_faults(self, **thresholds: int) -> None:
        """Fault probabilities (out of 65536) on every egress port, e.g. loss_threshold=655."""
        for name, value in thresholds.items():
            getattr(self.dut, name).value = sum(value << (16 * port) for port in range(self.nodes_count))

    def mark_every_ect_frame(self) -> None:
        """RED/ECN on every egress port with both thresholds at 0: every ECN-capable frame leaves
        the switch marked CE, whatever its queue."""
        self.dut.ecn_enable.value = (1 << self.nodes_count) - 1
        for name in ("ecn_kmin_bytes", "ecn_kmax_bytes", "ecn_pmax"):
            getattr(self.dut, name).value = 0

    def switch_counters(self) -> dict[str, list[int]]:
        counters = {}
        for name in SWITCH_COUNTERS:
            packed = int(getattr(self.dut, name).value)
            counters[name] = [(packed >> (32 * port)) & 0xFFFFFFFF for port in range(self.nodes_count)]
        return counters


def bit_field(bits: str, low: int, width: int) -> int:
    """The width bits from bit low up of a vector written as text, most significant bit first."""
    return int(bits[len(bits) - low - width:len(bits) - low] or "0", 2)


class SwitchLedger:
    """Every frame that enters the switch, by the port it came from, and every frame that leaves
    it: what the switch lost is what entered and never left (with ECN marking and corruption off a
    frame leaves with the bytes it entered with; a duplicate only adds copies). That tells a lost
    request, which its sender must send again, from a lost acknowledgement, which the next one
    covers."""

    def __init__(self, tb: ClusterTB):
        self.entered: list[tuple[int, bytes]] = []
        self.left: collections.Counter[bytes] = collections.Counter()
        cocotb.start_soon(tb.watch_frames("tx", lambda port, frame, cycle: self.entered.append((port, frame))))
        cocotb.start_soon(tb.watch_frames("rx", lambda port, frame, cycle: self.left.update([frame])))

    def lost(self) -> list[tuple[int, RocePacket]]:
        """(sending port, packet) of every frame the switch took in and never delivered."""
        missing = collections.Counter(frame for _, frame in self.entered) - self.left
        lost = []
        for port, frame in self.entered:
            if missing[frame]:
                missing[frame] -= 1
                lost.append((port, parse_frame(frame)))
        return lost

    def sent_again(self, port: int, packet: RocePacket) -> bool:
        """Whether the node on port sent the request (its QP and PSN) more than once."""
        sends = [parse_frame(frame).bth for sender, frame in self.entered if sender == port]
        return sum((bth.dest_qp, bth.psn) == (packet.bth.dest_qp, packet.bth.psn) for bth in sends) > 1


class CollectiveEnds:
    """The cycle each rank's collective engine fell idle (its busy flag, read through the
    hierarchy): the testbench's own view of a collective's end, to hold against the engine's
    COLLECTIVE_CYCLES counter."""

    def __init__(self, dut, counter: CycleCounter, ranks: int):
        self.busy = [dut.node_gen[rank].node_inst.collective.collective_inst.busy for rank in range(ranks)]
        self.counter = counter
        self.ended: list[int | None] = [None] * ranks
        cocotb.start_soon(self._run())

    def clear(self) -> None:
        self.ended = [None] * len(self.busy)

    async def _run(self) -> None:
        was_busy = [False] * len(self.busy)
        while True:
            await RisingEdge(self.counter.clock)
            for rank, flag in enumerate(self.busy):
                busy = flag.value == 1
                if was_busy[rank] and not busy:
                    self.ended[rank] = self.counter.now
                was_busy[rank] = busy


class MemoryWrites:
    """Every write burst one node's memory takes on its AXI4 port (read through the hierarchy):
    its address, its bytes and the cycle of its last data beat, the moment the RAM holds them."""

    def __init__(self, dut, rank: int, counter: CycleCounter):
        node = dut.node_gen[rank]
        self.address_channel = (node.memory_awvalid, node.memory_awready, node.memory_awaddr, node.memory_awlen,
                                node.memory_awsize)
        self.data_channel = (node.memory_wvalid, node.memory_wready, node.memory_wlast)
        self.counter = counter
        # AXI4 write data comes in the order of the addresses, with no interleaving: burst i's
        # address and its last beat are the i-th of each list
        self.bursts: list[tuple[int, int]] = []
        self.last_beat_cycles: list[int] = []
        cocotb.start_soon(self._run())

    async def _run(self) -> None:
        awvalid, awready, awaddr, awlen, awsize = self.address_channel
        wvalid, wready, wlast = self.data_channel
        while True:
            await RisingEdge(self.counter.clock)
            if awvalid.value == 1 and awready.value == 1:
                self.bursts.append((int(awaddr.value), (int(awlen.value) + 1) << int(awsize.value)))
            if wvalid.value == 1 and wready.value == 1 and wlast.value == 1:
                self.last_beat_cycles.append(self.counter.now)

    def landed(self, address: int, length: int) -> int | None:
        """The cycle the last burst that writes any of address .. address + length - 1 ended, or None."""
        touching = [cycle for (start, size), cycle in zip(self.bursts, self.last_beat_cycles)
                    if start < address + length and address < start + size]
        return max(touching, default=None)


async def check_allreduce(tb: ClusterTB, elements: int, dtype: str, op: str, collective_id: int,
                          layout: collective.Layout, timeout_cycles: int) -> list[collective.RankReport]:
    """One all-reduce of random vectors on every node: done on every rank, every element exactly
    the ring-order model's."""
    vectors = random_vectors(tb.rng, tb.nodes_count, elements, dtype)
    expected = ring_allreduce(vectors, dtype, op, beat_bits=tb.data_width)
    results, reports = await collective.allreduce(tb.nodes, vectors, dtype, op, collective_id, layout,
                                                  timeout_cycles=timeout_cycles)
    for report in reports:
        assert not report.failed and report.status["done"], f"rank {report.rank}: {report.status}"
    for rank, result in enumerate(results):
        wrong = np.flatnonzero(result != expected)
        assert wrong.size == 0, (f"rank {rank}: {wrong.size} of {elements} {dtype} elements wrong, first at "
                                 f"{wrong[0]}: {result[wrong[0]]:#x} instead of {expected[wrong[0]]:#x} "
                                 f"(its input {vectors[rank][wrong[0]]:#x}); reports {reports}")
    return reports
