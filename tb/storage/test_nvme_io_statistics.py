# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""nvme_io_statistics: the SMART/Health I/O counters (Data Units Read / Written in rounded-up
thousands of 512-byte units, Host Read / Write Commands) against dpuv.models.nvme_io_statistics.
Each cycle's inputs are set at the falling edge and every output checked a nanosecond later.

The design takes a command in two stages (its units split into thousands and a remainder, then
added): a completion sampled at one rising edge shows on the outputs after the next one. A reset
at an edge clears the counters and drops the completion sampled at the edge before (still in the
first stage) and any sampled with it."""

from __future__ import annotations

from dataclasses import dataclass

import cocotb
from cocotb.triggers import FallingEdge, Timer

from dpuv.models.nvme_io_statistics import IoStatistics
from dpuv.tb.testbench import build_parameters, start_clock_and_reset, test_rng

MAX_BLOCKS = 65536


@dataclass(frozen=True)
class Completion:
    read: bool
    write: bool
    success: bool
    blocks: int


def read(blocks: int, success: bool = True) -> Completion:
    return Completion(True, False, success, blocks)


def write(blocks: int, success: bool = True) -> Completion:
    return Completion(False, True, success, blocks)


def other(blocks: int = 1, success: bool = True) -> Completion:
    """Flush, Write Zeroes or any other opcode: neither a Read nor a Write."""
    return Completion(False, False, success, blocks)


class TB:
    def __init__(self, dut):
        self.dut = dut
        self.lba_shift = build_parameters().get("LBA_SHIFT", 9)
        self.unit_blocks = 1 << (self.lba_shift - 9)   # units per logical block
        self.model = IoStatistics(self.lba_shift)
        self.in_stage: Completion | None = None        # sampled at the last edge, not yet counted
        self.counted = 0
        self.drive(None, False)

    async def reset(self):
        await start_clock_and_reset(self.dut.clk, self.dut.rst)

    def drive(self, completion: Completion | None, reset: bool) -> None:
        dut = self.dut
        done = completion or Completion(False, False, False, 1)
        dut.io_done.value = int(completion is not None)
        dut.io_read.value = int(done.read)
        dut.io_write.value = int(done.write)
        dut.io_success.value = int(done.success)
        dut.io_blocks.value = done.blocks % (1 << 17)
        dut.rst.value = int(reset)

    async def step(self, completion: Completion | None = None, reset: bool = False) -> None:
        """One cycle: inputs set at the falling edge, outputs checked, then what the coming edge does."""
        await FallingEdge(self.dut.clk)
        self.drive(completion, reset)
        await Timer(1, "ns")
        self.check()
        if reset:
            self.model.reset()
            self.in_stage = None
            return
        if self.in_stage is not None:
            self.model.complete(self.in_stage.read, self.in_stage.write, self.in_stage.success, self.in_stage.blocks)
            self.counted += 1
        self.in_stage = completion

    async def drain(self) -> None:
        """Two idle cycles: everything driven so far is on the outputs (and checked)."""
        await self.step()
        await self.step()

    def check(self) -> None:
        dut, model = self.dut, self.model
        got = {name: int(getattr(dut, name).value) for name in
               ("data_units_read", "data_units_written", "host_read_commands", "host_write_commands")}
        expected = {name: getattr(model, name) for name in got}
        assert got == expected, (f"outputs {got}, the model's {expected} (units read {model.units_read}, "
                                 f"written {model.units_written})")


def random_blocks(rng, unit_blocks: int) -> int:
    """Mostly small commands, some near a thousand units, some of the largest."""
    near_thousand = max(1, 1000 // unit_blocks + rng.randint(-2, 2))
    return rng.choice((1, 1, rng.randint(1, 8), rng.randint(1, 256), near_thousand, rng.randint(1, MAX_BLOCKS),
                       MAX_BLOCKS, MAX_BLOCKS - 1))


def random_completion(rng, unit_blocks: int) -> Completion:
    kind = rng.random()
    success = rng.random() < 0.8
    blocks = random_blocks(rng, unit_blocks)
    if kind < 0.45:
        return read(blocks, success)
    if kind < 0.9:
        return write(blocks, success)
    return other(blocks, success)


@cocotb.test(timeout_time=100, timeout_unit="us")
async def random_traffic_counts_as_the_model_predicts(dut):
    """Random Reads, Writes and other commands, failed or not, in bursts with every cycle busy or
    with gaps, resets in the middle of traffic; every output checked each cycle."""
    tb = TB(dut)
    await tb.reset()
    rng = test_rng("traffic", tb.lba_shift)
    resets = 0
    for burst in range(60):
        rate = rng.choice((1.0, 1.0, 0.5, 0.2, 0.05, 0.0))
        for _ in range(rng.randint(5, 120)):
            completion = random_completion(rng, tb.unit_blocks) if rng.random() < rate else None
            await tb.step(completion, reset=rng.random() < 0.003)
        if burst % 9 == 8:
            # A reset in the middle of traffic (a completion in the first stage is dropped with it)
            for _ in range(rng.randint(1, 3)):
                await tb.step(random_completion(rng, tb.unit_blocks), reset=True)
            resets += 1
    await tb.drain()
    assert resets >= 4 and tb.counted > 500, f"{tb.counted} completions counted, {resets} resets"


@cocotb.test(timeout_time=100, timeout_unit="us")
async def data_units_round_up_to_the_next_thousand(dut):
    """1 unit reads as 1, 1000 units as 1, 1001 as 2; remainders of separate commands carry into
    the thousands; Reads and Writes keep their own remainders."""
    tb = TB(dut)
    await tb.reset()
    unit = tb.unit_blocks
    await tb.drain()
    assert int(dut.data_units_read.value) == 0, "nothing read yet reads as 0"
    await tb.step(read(1))
    await tb.drain()
    assert int(dut.data_units_read.value) == 1, f"{unit} units read: 1"
    await tb.step(read(1000 // unit - 1))
    await tb.drain()
    assert tb.model.units_read == 1000 and int(dut.data_units_read.value) == 1, "exactly 1000 units: 1"
    await tb.step(read(1))
    await tb.drain()
    assert int(dut.data_units_read.value) == 2, f"{1000 + unit} units: 2"
    # One command of exactly 1000 units, then 1000 + one block's
    await tb.step(write(1000 // unit))
    await tb.drain()
    assert int(dut.data_units_written.value) == 1
    await tb.step(write(1000 // unit + 1))
    await tb.drain()
    assert tb.model.units_written == 2000 + unit and int(dut.data_units_written.value) == 3
    # Remainders that carry, back to back: 999 + 1 (or the nearest whole blocks) and many small ones
    await tb.step(read(1), reset=True)
    for blocks in (999 // unit, 1, 1, 1000 // unit, 1):
        await tb.step(read(blocks))
    for _ in range(3000 // unit):
        await tb.step(write(1))
    await tb.drain()
    assert tb.model.units_written == 3000 and int(dut.data_units_written.value) == 3


@cocotb.test(timeout_time=50, timeout_unit="us")
async def every_split_of_a_command_into_thousands_is_exact(dut):
    """Commands just below, at and above every multiple of 1000 units one command can reach (up to
    65536 blocks), back to back and alternating direction, so every thousands value of the split
    and both carry cases are checked."""
    tb = TB(dut)
    await tb.reset()
    unit = tb.unit_blocks
    sizes = sorted({blocks for multiple in range(0, MAX_BLOCKS * unit // 1000 + 1)
                    for blocks in (multiple * 1000 // unit - 1, multiple * 1000 // unit,
                                   multiple * 1000 // unit + 1)
                    if 1 <= blocks <= MAX_BLOCKS} | {MAX_BLOCKS})
    for index, blocks in enumerate(sizes):
        await tb.step(read(blocks) if index % 2 else write(blocks))
    await tb.drain()


@cocotb.test(timeout_time=1, timeout_unit="us")
async def failed_and_other_commands_count_nothing(dut):
    tb = TB(dut)
    await tb.reset()
    for completion in (read(8, success=False), write(MAX_BLOCKS, success=False), other(1), other(MAX_BLOCKS),
                       other(3, success=False)):
        await tb.step(completion)
        await tb.step()
    # io_blocks and the opcode without io_done are not a completion
    await FallingEdge(dut.clk)
    dut.io_read.value, dut.io_success.value, dut.io_blocks.value = 1, 1, 100
    await tb.drain()
    assert tb.counted == 5 and tb.model.read_commands == tb.model.write_commands == 0
    await tb.step(read(2))
    await tb.step(write(3))
    await tb.drain()
    assert int(dut.host_read_commands.value) == 1 and int(dut.host_write_commands.value) == 1


@cocotb.test(timeout_time=10, timeout_unit="us")
async def the_largest_commands_every_cycle_lose_nothing(dut):
    """65536-block Reads and Writes completing every cycle for 300 cycles: each is counted."""
    tb = TB(dut)
    await tb.reset()
    for index in range(300):
        await tb.step(read(MAX_BLOCKS) if index % 3 else write(MAX_BLOCKS - index))
    await tb.drain()
    assert tb.model.read_commands == 200 and tb.model.write_commands == 100
