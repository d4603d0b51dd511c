# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""nvme_error_log: command errors (a completion with a non-zero status) and invalid doorbell writes
recorded newest first with the lifetime error count, against dpuv.models.nvme_error_log. Each
cycle's inputs are set at the falling edge and every output (the count and every entry, each field)
is checked a nanosecond later, before the coming rising edge applies them to the design and to the
model. The outputs are registered, so that check also shows no input reaches them before the edge."""

from __future__ import annotations

import cocotb
from cocotb.triggers import FallingEdge, Timer

from dpuv.models.nvme_error_log import COUNT_LIMIT, ErrorEntry, ErrorLog
from dpuv.tb.testbench import build_parameters, start_clock_and_reset, test_rng

# Status fields (bits 15:1) the engine posts: DNR (bit 14) with SCT 0 / SC 01h, 02h, 04h, 0Bh, 13h,
# 80h, SCT 1 / SC 00h, 01h, 09h, 0Dh, SCT 2 / SC 81h
ENGINE_STATUSES = tuple(1 << 14 | sct << 8 | sc for sct, sc in ((0, 0x01), (0, 0x02), (0, 0x04), (0, 0x0B),
                                                                (0, 0x13), (0, 0x80), (1, 0x00), (1, 0x01),
                                                                (1, 0x09), (1, 0x0D), (2, 0x81)))


class TB:
    def __init__(self, dut):
        self.dut = dut
        self.size = build_parameters().get("ENTRIES", 4)
        self.model = ErrorLog(self.size)
        self.cycles = 0
        self.recorded = 0     # errors recorded (not dropped by a reset), over the test
        self.both = 0         # cycles that recorded a command and a doorbell error together
        self.drive(None, False, False)

    async def reset(self):
        await start_clock_and_reset(self.dut.clk, self.dut.rst)

    def drive(self, command: tuple[int, int, int, int] | None, doorbell: bool, reset: bool) -> None:
        dut = self.dut
        sqid, cid, status, phase = command or (0, 0, 0, 0)
        dut.command_error.value = int(command is not None)
        dut.command_sqid.value = sqid
        dut.command_cid.value = cid
        dut.command_status.value = status
        dut.command_phase.value = phase
        dut.doorbell_error.value = int(doorbell)
        dut.rst.value = int(reset)

    async def step(self, command: tuple[int, int, int, int] | None = None, doorbell: bool = False,
                   reset: bool = False) -> None:
        """One cycle: its inputs set at the falling edge, the outputs checked against the model as the
        previous edges left it, then the model takes what the coming edge samples."""
        await FallingEdge(self.dut.clk)
        self.drive(command, doorbell, reset)
        await Timer(1, "ns")
        self.check()
        self.cycles += 1
        if reset:
            self.model.reset()
            return
        self.model.cycle(command, doorbell)
        self.recorded += int(command is not None) + int(doorbell)
        self.both += int(command is not None and doorbell)

    def check(self) -> None:
        dut, model = self.dut, self.model
        count = int(dut.error_count.value)
        assert count == model.count, f"error_count {count:#x}, the model counts {model.count:#x}"
        flat = int(dut.entries.value)
        if flat == model.packed():
            return
        for index, expected in enumerate(model.slots()):
            word = flat >> (80 * index) & ((1 << 80) - 1)
            got = ErrorEntry(count=word & 0xFFFF_FFFF, sqid=word >> 32 & 0xFFFF, cid=word >> 48 & 0xFFFF,
                             status_field=word >> 64)
            assert got == expected, f"entry {index} (0 the newest) is {got}, the model's is {expected}"
        raise AssertionError("entries differ from the model")  # (unreachable: some entry differs)


def random_command(rng) -> tuple[int, int, int, int]:
    """(SQID, CID, status bits 15:1) of an error completion: admin or I/O queue, any CID, an engine
    status or any non-zero 15-bit one (CRD and M included, the log keeps what it is given)."""
    sqid = rng.choice((0, 0, rng.randrange(1, 65), rng.randrange(1 << 16), 0xFFFF))
    cid = rng.choice((0, 0xFFFF, rng.randrange(1 << 16), rng.randrange(1 << 16)))
    status = rng.choice(ENGINE_STATUSES) if rng.random() < 0.6 else rng.randrange(1, 1 << 15)
    return sqid, cid, status, rng.getrandbits(1)


@cocotb.test(timeout_time=100, timeout_unit="us")
async def errors_are_logged_newest_first_with_their_count(dut):
    """Random command and doorbell errors in bursts of different densities (every cycle, with gaps,
    both in one cycle), with resets in the middle of the traffic; every output checked each cycle.
    The log fills, wraps past its size and empties again on reset."""
    tb = TB(dut)
    await tb.reset()
    rng = test_rng("traffic", tb.size)
    resets = 0
    for burst in range(40):
        command_rate, doorbell_rate = rng.choice(((1.0, 0.0), (0.0, 1.0), (1.0, 1.0), (0.5, 0.5), (0.1, 0.05),
                                                  (0.02, 0.3), (0.8, 0.2), (0.0, 0.0)))
        for _ in range(rng.randint(5, 120)):
            command = random_command(rng) if rng.random() < command_rate else None
            doorbell = rng.random() < doorbell_rate
            await tb.step(command, doorbell, reset=rng.random() < 0.003)
        if burst % 9 == 8:
            # A reset in the middle of traffic, errors still pulsing while it is held (they are not kept)
            for _ in range(rng.randint(1, 3)):
                await tb.step(random_command(rng), rng.random() < 0.5, reset=True)
            resets += 1
    await tb.step()
    assert resets >= 4 and tb.both > 20 and tb.recorded > 10 * tb.size, \
        f"{tb.recorded} errors, {tb.both} cycles with both, {resets} resets"


@cocotb.test(timeout_time=1, timeout_unit="us")
async def a_command_and_a_doorbell_error_together_are_both_logged_doorbell_first(dut):
    tb = TB(dut)
    await tb.reset()
    await tb.step((3, 0x1234, 0x4002, 1), doorbell=True)
    await tb.step()
    assert int(dut.error_count.value) == 2
    newest = int(dut.entries.value) & ((1 << 80) - 1)
    # the status field over the phase tag it was posted with (1 here)
    assert newest == ErrorEntry(2, 3, 0x1234, 0x8005).packed(), f"newest entry {newest:#x}"
    if tb.size > 1:
        second = int(dut.entries.value) >> 80 & ((1 << 80) - 1)
        assert second == ErrorEntry(1, 0xFFFF, 0xFFFF, 0).packed(), f"second entry {second:#x}"
    # Pairs every cycle: the log is full of them, in order
    for cid in range(2 * tb.size + 1):
        await tb.step((cid % 3, cid, 0x4000 | cid + 1, cid % 2), doorbell=True)
    await tb.step()
    assert tb.model.count == 2 * (2 * tb.size + 2)


@cocotb.test(timeout_time=1, timeout_unit="us")
async def reset_clears_every_entry_and_the_count(dut):
    tb = TB(dut)
    await tb.reset()
    for cid in range(tb.size + 2):
        await tb.step((1, cid, 0x4001, 1), doorbell=cid % 2 == 0)
    await tb.step()
    assert int(dut.error_count.value) != 0 and int(dut.entries.value) != 0
    await tb.step((1, 7, 0x4001, 0), doorbell=True, reset=True)   # errors at a reset edge are not kept
    await tb.step()
    assert int(dut.error_count.value) == 0 and int(dut.entries.value) == 0, "reset left the log"
    await tb.step(doorbell=True)
    await tb.step()
    assert int(dut.error_count.value) == 1, "the first error after a reset is number 1"


@cocotb.test(timeout_time=1, timeout_unit="us")
async def the_error_count_stops_at_ffffffff(dut):
    """2^32 errors are too many to simulate: the count register is deposited just below the limit
    (with no error in that cycle) and the errors that follow, singly and in pairs, stop at
    FFFFFFFFh; entries recorded there carry FFFFFFFFh, never 0 (the unused mark)."""
    tb = TB(dut)
    await tb.reset()
    await tb.step(doorbell=True)
    await FallingEdge(dut.clk)
    tb.drive(None, False, False)
    dut.lifetime_count.value = COUNT_LIMIT - 2
    tb.model.count = COUNT_LIMIT - 2
    await tb.step()
    await tb.step((5, 0x55, 0x4002, 1))                 # FFFFFFFEh
    await tb.step((6, 0x66, 0x4004, 0), doorbell=True)  # FFFFFFFFh twice
    await tb.step(doorbell=True)
    for cid in range(tb.size + 1):
        await tb.step((7, cid, 0x4081, cid % 2), doorbell=cid % 2 == 1)
    await tb.step()
    assert int(dut.error_count.value) == COUNT_LIMIT
    assert all(entry.count == COUNT_LIMIT for entry in tb.model.slots())
