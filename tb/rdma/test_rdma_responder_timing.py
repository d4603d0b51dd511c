# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""rdma_engine's responder on its timing-critical paths, one short directed exchange each over a
clean wire: a 64-byte WRITE ONLY's last beat to its ACK, and a burst of 64-byte WRITEs arriving
back to back. Each checks what it times (bytes in memory, every request completed once, the
latency against its spec target and the engine's own counter), and each is short enough to be a
waveform regression scenario (tb/rdma/manifest.toml, [wave.*])."""

import cocotb
from cocotb.triggers import RisingEdge

from dpuv.harness import perf
from dpuv.models.roce_packet import AckType, Opcode
from dpuv.models.roce_qp import CompletionStatus, WorkRequest
from dpuv.tb.testbench import test_rng

from rdma_engine_bench import REGION_BASE, RKEY, TB

WRITE_BYTES = 64


class BeatWatch:
    """Cycle stamps (the TB's count) of every request frame's last beat in and every frame's
    first beat out."""

    def __init__(self, tb: TB):
        self.tb = tb
        self.request_ends: list[int] = []
        self.reply_starts: list[int] = []
        self._task = cocotb.start_soon(self._run())

    async def _run(self):
        dut, mid_reply = self.tb.dut, False
        while True:
            await RisingEdge(dut.clk)
            if dut.s_axis_rx_tvalid.value == 1 and dut.s_axis_rx_tlast.value == 1:
                self.request_ends.append(self.tb.cycle)
            if dut.m_axis_tx_tvalid.value == 1 and dut.m_axis_tx_tready.value == 1:
                if not mid_reply:
                    self.reply_starts.append(self.tb.cycle)
                mid_reply = dut.m_axis_tx_tlast.value != 1

    def stop(self):
        self._task.cancel()


async def writes_in_one_burst(dut, label: str, count: int):
    """`count` 64-byte WRITEs posted at once, so the peer sends them back to back; each lands
    once, in order, and is acknowledged on its own (every WRITE ONLY asks for an ACK)."""
    rng = test_rng(label)
    tb = TB(dut, rng)
    await tb.reset()
    await tb.set_up(0)
    peer = tb.requester(0)
    watch = BeatWatch(tb)
    writes = [WorkRequest.write(index, rng.randbytes(WRITE_BYTES), REGION_BASE + index * WRITE_BYTES, RKEY)
              for index in range(count)]
    for request in writes:
        peer.post_send(request)
    completions = await tb.run(peer, count)
    watch.stop()
    assert [(c.wr_id, c.status) for c in completions] == [(index, CompletionStatus.SUCCESS) for index in range(count)]
    for request in writes:
        assert tb.memory.read(request.remote_address, WRITE_BYTES) == request.data, f"WRITE {request.wr_id}"
    acks = [packet for packet in tb.sent if packet.bth.opcode == Opcode.ACKNOWLEDGE]
    assert [(packet.bth.psn, packet.aeth.ack_type) for packet in acks] == [(psn, AckType.ACK) for psn in range(count)], \
        "one positive ACK per WRITE, in PSN order"
    events = tb.events
    assert (events["acks_sent"], events["naks_sent"], events["duplicates"], events["drops_overflow"]) == \
        (count, 0, 0, 0), events
    assert len(watch.request_ends) == count and len(watch.reply_starts) == count, watch.__dict__
    return tb, watch


@cocotb.test(timeout_time=20, timeout_unit="us")
async def a_64_byte_write_is_acked_within_the_latency_target(dut):
    """One WRITE ONLY alone: from its last beat in to its ACK's first beat out (ICRC check,
    payload write, write response of the zero-wait memory), by the testbench and by the engine's
    ACK latency counter, which starts a fixed step after the last beat."""
    tb, watch = await writes_in_one_burst(dut, "one write", 1)
    latency = watch.reply_starts[0] - watch.request_ends[0]
    events = tb.events
    assert events["ack_latency_count"] == 1 and events["ack_latency_min"] == events["ack_latency_max"], events
    figure = perf.compare("rdma", "ack_latency", events["ack_latency_min"], latency, tolerance=2,
                          context=f"DATA_WIDTH={len(dut.s_axis_rx_tdata)}, one 64-byte WRITE")
    assert figure.passed, figure.explain()
    dut._log.info("64-byte WRITE: last beat to ACK in %d cycles (engine counter %d)", latency, events["ack_latency_min"])


@cocotb.test(timeout_time=20, timeout_unit="us")
async def back_to_back_64_byte_writes_are_each_acked(dut):
    """Eight WRITE ONLYs of 64 bytes arriving back to back: the responder takes one packet at a
    time (docs/rdma.md, Known limits), so the ACKs leave at a steady pace set by the responder,
    not by the wire; none is dropped, coalesced or answered twice, and after the first the engine
    needs no more than its single-WRITE latency per WRITE."""
    count = 8
    tb, watch = await writes_in_one_burst(dut, "back to back", count)
    ends, starts = watch.request_ends, watch.reply_starts
    frame_beats = -(-len(tb.delivered[0]) // (len(dut.s_axis_rx_tdata) // 8))
    assert [later - earlier for earlier, later in zip(ends, ends[1:])] == [frame_beats] * (count - 1), \
        f"the WRITEs did not arrive back to back ({frame_beats} beats each): last beats at {ends}"
    spacing = [later - earlier for earlier, later in zip(starts, starts[1:])]
    # Steady state: one fixed spacing, from the second interval on (the first WRITE found the
    # responder idle, so the first interval may differ)
    assert len(set(spacing[1:])) == 1, f"ACK spacing varies: {spacing}"
    alone = starts[0] - ends[0]
    assert spacing[-1] <= alone, f"each back-to-back WRITE takes {spacing[-1]} cycles, more than one alone ({alone})"
    dut._log.info("%d back-to-back 64-byte WRITEs: RX last beats at %s, ACK first beats at %s, ACK spacing %s",
                  count, [end - ends[0] for end in ends], [start - ends[0] for start in starts], spacing)
