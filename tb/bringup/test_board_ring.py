# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""A board build with an all-reduce ring of two ranks: `dpuv bringup` through the UART pins, exactly
as on a board, writes each rank's vectors through its buffer window, runs the ring and holds every
element of every result against the ring-order model; the buffer windows themselves (byte
strobes, no aliasing between ranks, refusal past a buffer's end)."""

import cocotb

from board_bench import TB
from dpuv.board import rank_ring
from dpuv.regs import chain
from dpuv.regs.access import BusError
from dpuv.regs.maps import allreduce_rank


@cocotb.test(timeout_time=12, timeout_unit="ms")
async def the_ring_allreduces_known_vectors_through_the_uart_as_on_a_board(dut):
    tb = TB(dut)
    report = await tb.bring_up_passes()
    assert [block["type"] for block in report.blocks] == ["DPID", "PERF", "TRAF", "DPID", "ARED", "DPID", "ARED"], \
        report.blocks
    assert "all-reduce ring of known vectors" in [check.name for check in report.checks], report.checks


@cocotb.test(timeout_time=3, timeout_unit="ms")
async def each_rank_buffer_is_its_own_and_ends_where_it_says(dut):
    tb = TB(dut)
    await tb.reset()
    ranks = rank_ring.find_ranks(tb.link, await chain.walk(tb.link))
    assert len(ranks) == 2
    capabilities = await ranks[0].csrs.read_register("CAPABILITIES")
    field = allreduce_rank.BLOCK["CAPABILITIES"].field
    buffer_bytes = field("beat_bytes").extract(capabilities) << field("buffer_beats_log2").extract(capabilities)
    # Whole words, then single bytes inside a word of a beat already written (the window merges
    # them into the beat it reads first), on both ranks at the same offsets
    await ranks[0].buffer.write(0x40, b"rank zero buffer")
    await ranks[1].buffer.write(0x40, b"rank one  buffer")
    await ranks[0].buffer.write(0x45, b"Z")
    await ranks[1].buffer.write(0x4A, b"!")
    assert await ranks[0].buffer.read(0x40, 16) == b"rank Zero buffer"
    assert await ranks[1].buffer.read(0x40, 16) == b"rank one  !uffer"
    # A buffer's first word, known, to show that a write past its end does not wrap onto it (an
    # unwritten word is undefined: 4-state Icarus reads it as X)
    await ranks[1].buffer.write(0, b"head")
    await ranks[0].buffer.write(buffer_bytes - 4, b"last")
    assert await ranks[0].buffer.read(buffer_bytes - 4, 4) == b"last"
    for access in (ranks[0].buffer.read(buffer_bytes, 4), ranks[1].buffer.write(buffer_bytes, b"past")):
        try:
            await access
        except BusError as error:
            assert error.response == "SLVERR", error
        else:
            raise AssertionError(f"an access {buffer_bytes:#x} bytes in, past the buffer, was answered")
    assert await ranks[1].buffer.read(0, 4) == b"head"
