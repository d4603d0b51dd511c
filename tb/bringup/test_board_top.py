# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""board_top: the pins a board has. The bring-up scenario through the UART exactly as on a board,
UART bit timing, a host clock off by a few percent, framing errors, glitches and the reset button."""

import cocotb
from cocotb.triggers import ClockCycles, Edge, RisingEdge, with_timeout

from dpuv.regs import chain
from board_bench import TB
from dpuv.regs.maps import id_block
from dpuv.tb.testbench import test_rng

SCRATCH = id_block.BLOCK["SCRATCH"].offset
FRAMING_ERROR_LED = 3


@cocotb.test(timeout_time=20, timeout_unit="ms")
async def bring_up_runs_through_the_uart_as_on_a_board(dut):
    tb = TB(dut)
    report = await tb.bring_up_passes()
    names = [check.name for check in report.checks]
    assert any("traffic" in name for name in names) and any("injected" in name for name in names), names


@cocotb.test(timeout_time=100, timeout_unit="us")
async def uart_bits_are_exactly_one_bit_time_wide(dut):
    tb = TB(dut)
    await tb.reset()
    edges = []

    async def record():
        cycle = 0
        previous = int(dut.uart_tx.value)
        while True:
            await RisingEdge(dut.clk)
            cycle += 1
            if int(dut.uart_tx.value) != previous:
                previous = int(dut.uart_tx.value)
                edges.append(cycle)

    recorder = cocotb.start_soon(record())
    assert await tb.link.read_dword(chain.ID_BLOCK_ADDRESS + id_block.BLOCK["MAGIC"].offset) == chain.MAGIC
    recorder.cancel()
    assert len(edges) > 10, "the transmit pin never moved"
    offsets = [edge - edges[0] for edge in edges]
    assert all(offset % tb.clocks_per_bit == 0 for offset in offsets), \
        f"edges not on bit boundaries of {tb.clocks_per_bit} clocks: {offsets[:20]}"


@cocotb.test(timeout_time=1, timeout_unit="ms")
@cocotb.parametrize(drift=(-0.03, 0.03))
async def a_host_clock_off_by_3_percent_still_talks(dut, drift):
    tb = TB(dut, host_drift=drift)
    await tb.reset()
    rng = test_rng("drift", drift)
    for _ in range(4):
        value = rng.getrandbits(32)
        await tb.link.write_dword(SCRATCH, value)
        assert await tb.link.read_dword(SCRATCH) == value
    assert (tb.link.retries, tb.uart.framing_errors) == (0, 0), "retries, framing errors"


@cocotb.test(timeout_time=200, timeout_unit="us")
async def a_framing_error_is_dropped_shown_and_recovered(dut):
    tb = TB(dut)
    await tb.reset()
    assert (int(dut.led.value) >> FRAMING_ERROR_LED) & 1 == 0
    await tb.uart.send_bits([0] + [1, 0, 1, 0, 0, 1, 0, 1] + [0] + [1] * 4)  # 0xA5 with a low stop bit
    await ClockCycles(dut.clk, 4 * tb.clocks_per_bit)
    assert (int(dut.led.value) >> FRAMING_ERROR_LED) & 1 == 1, "framing-error LED stayed dark"
    await tb.link.write_dword(SCRATCH, 0x600DF00D)
    assert await tb.link.read_dword(SCRATCH) == 0x600DF00D


@cocotb.test(timeout_time=500, timeout_unit="us")
async def a_glitch_shorter_than_half_a_bit_is_not_a_start_bit(dut):
    tb = TB(dut)
    await tb.reset()
    glitch_cycles = tb.clocks_per_bit // 2 - 2
    for _ in range(3):
        dut.uart_rx.value = 0
        await ClockCycles(dut.clk, glitch_cycles)
        dut.uart_rx.value = 1
        await ClockCycles(dut.clk, tb.clocks_per_bit // 4)
        # a request right behind the glitch: taken as a start bit, it would garble the sync byte
        assert await tb.link.read_dword(chain.ID_BLOCK_ADDRESS + id_block.BLOCK["MAGIC"].offset) == chain.MAGIC
    assert tb.link.retries == 0, f"{tb.link.retries} retries: a glitch was taken for a start bit"


@cocotb.test(timeout_time=1, timeout_unit="ms")
async def the_reset_button_mid_frame_costs_one_retry(dut):
    tb = TB(dut)
    await tb.reset()
    rng = test_rng("button")
    request = cocotb.start_soon(tb.link.write_dword(SCRATCH, 0x12345678))
    await with_timeout(Edge(dut.uart_tx), 1, "ms")  # the device has started answering
    await ClockCycles(dut.clk, rng.randrange(1, 40 * tb.clocks_per_bit))
    dut.rst_n.value = 0
    await ClockCycles(dut.clk, 3)
    dut.rst_n.value = 1
    await request
    assert tb.link.retries >= 1, "the answer cut by the reset was not retried"
    value = rng.getrandbits(32)
    await tb.link.write_dword(SCRATCH, value)
    assert await tb.link.read_dword(SCRATCH) == value
