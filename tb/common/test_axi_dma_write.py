# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""axi_dma_write: payloads land at any byte address, byte-exact, nothing around them touched;
bursts never cross 4 KiB or exceed the burst limit; a failing burst flags its command's status."""

import cocotb
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import AxiSlaveWrite, AxiStreamBus, AxiStreamFrame, AxiStreamSource, AxiWriteBus

from dpuv.tb.testbench import (PAUSE_OPTIONS, BurstMonitor, build_parameters, handshake, pauses, pulse_reset, quiet,
                                start_clock_and_reset, test_rng)

MEMORY_BYTES = 1 << 16


class Memory:
    """The AXI slave's backing store; writes into `poisoned` fail (the slave answers SLVERR)."""

    def __init__(self, fill: bytes):
        self.data = bytearray(fill)
        self.poisoned = range(0)

    async def write(self, address, data):
        if address in self.poisoned or address + len(data) - 1 in self.poisoned:
            raise ValueError(f"write to poisoned {address:#x}")
        self.data[address:address + len(data)] = data


class TB:
    def __init__(self, dut, rng, idle=None, backpressure=None):
        self.dut = dut
        self.rng = rng
        self.bytes_per_beat = len(dut.s_axis_tdata) // 8
        self.bursts = BurstMonitor(dut, "m_axi_aw", self.bytes_per_beat, build_parameters().get("MAX_BURST_BEATS", 256))
        self.fill = rng.randbytes(MEMORY_BYTES)
        self.memory = Memory(self.fill)
        self.slave = AxiSlaveWrite(AxiWriteBus.from_prefix(dut, "m_axi"), dut.clk, dut.rst, target=self.memory)
        quiet(self.slave.aw_channel, self.slave.w_channel, self.slave.b_channel)
        for channel in (self.slave.aw_channel, self.slave.w_channel):
            channel.set_pause_generator(pauses(rng, backpressure))
        self.payload = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis"), dut.clk, dut.rst)
        quiet(self.payload)
        self.payload.set_pause_generator(pauses(rng, idle))
        self.statuses = []
        dut.s_cmd_valid.value = 0
        cocotb.start_soon(self._watch_statuses())

    async def _watch_statuses(self):
        while True:
            await RisingEdge(self.dut.clk)
            if self.dut.status_valid.value == 1:
                self.statuses.append(int(self.dut.status_error.value))

    async def reset(self):
        await start_clock_and_reset(self.dut.clk, self.dut.rst)

    async def command(self, address: int, length: int):
        self.dut.s_cmd_addr.value = address
        self.dut.s_cmd_len.value = length
        await handshake(self.dut.clk, self.dut.s_cmd_valid, self.dut.s_cmd_ready)

    async def write_all(self, writes):
        for address, data in writes:
            await self.payload.send(AxiStreamFrame(data))
        for address, data in writes:
            await self.command(address, len(data))

    async def wait_statuses(self, count, limit=200_000):
        for _ in range(limit):
            if len(self.statuses) >= count:
                return
            await RisingEdge(self.dut.clk)
        raise AssertionError(f"{len(self.statuses)} of {count} statuses after {limit} cycles")



@cocotb.test(timeout_time=200, timeout_unit="us")
@cocotb.parametrize(idle=PAUSE_OPTIONS, backpressure=PAUSE_OPTIONS)
async def payloads_land_byte_exact_at_any_address(dut, idle, backpressure):
    rng = test_rng("writes", idle, backpressure)
    tb = TB(dut, rng, idle, backpressure)
    await tb.reset()
    expected = bytearray(tb.fill)
    writes = []
    for _ in range(24):
        length = rng.choice([1, 2, 3, tb.bytes_per_beat - 1, tb.bytes_per_beat, tb.bytes_per_beat + 1,
                             rng.randint(1, 300), rng.randint(1, 5000)])
        address = rng.randrange(0, MEMORY_BYTES - length)
        data = rng.randbytes(length)
        writes.append((address, data))
        expected[address:address + length] = data
    cocotb.start_soon(tb.write_all(writes))
    await tb.wait_statuses(len(writes))
    assert tb.statuses == [0] * len(writes)
    assert tb.memory.data == expected, "memory differs from the writes (or bytes around them were touched)"
    tb.bursts.check()


@cocotb.test(timeout_time=50, timeout_unit="us")
async def pages_and_burst_limits_split_a_long_write(dut):
    rng = test_rng("split")
    tb = TB(dut, rng)
    await tb.reset()
    address, data = 4096 - 3, rng.randbytes(3 * 4096 + 7)  # starts 3 bytes before a page ends
    cocotb.start_soon(tb.write_all([(address, data)]))
    await tb.wait_statuses(1)
    assert bytes(tb.memory.data[address:address + len(data)]) == data
    tb.bursts.check()
    assert len(tb.bursts.bursts) >= 4, tb.bursts
    # beats one per clock once the bursts are addressed: the whole write's span against its beats
    dut._log.info("bursts: %s", [(hex(a), n) for a, n in tb.bursts.bursts])


@cocotb.test(timeout_time=20, timeout_unit="us")
async def a_failed_burst_flags_only_its_own_command(dut):
    rng = test_rng("errors")
    tb = TB(dut, rng)
    await tb.reset()
    tb.memory.poisoned = range(0x8000, 0x8010)
    writes = [(0x1000, rng.randbytes(100)), (0x7FF0, rng.randbytes(64)), (0x2000, rng.randbytes(5000))]
    cocotb.start_soon(tb.write_all(writes))
    await tb.wait_statuses(3)
    assert tb.statuses == [0, 1, 0]
    assert bytes(tb.memory.data[0x2000:0x2000 + 5000]) == writes[2][1]


@cocotb.test(timeout_time=10, timeout_unit="us")
async def reset_in_mid_write_then_clean_writes(dut):
    rng = test_rng("reset")
    tb = TB(dut, rng, 0.3, 0.3)
    await tb.reset()
    cocotb.start_soon(tb.write_all([(0x100, rng.randbytes(3000))]))
    await ClockCycles(dut.clk, 60)
    await pulse_reset(dut.clk, dut.rst)
    tb.payload.clear()
    tb.statuses.clear()
    writes = [(0x3003, rng.randbytes(777)), (0x5000, rng.randbytes(64))]
    cocotb.start_soon(tb.write_all(writes))
    await tb.wait_statuses(2)
    assert tb.statuses == [0, 0]
    for address, data in writes:
        assert bytes(tb.memory.data[address:address + len(data)]) == data
