# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""board_core: the core's registers through the board link. The same chain walk and register
code as over AXI4-Lite, bus errors carried back, malformed frames answered or dropped, and a
noisy or silent link met with retries and clear errors, never a wrong value."""

import random

import cocotb
from cocotb.triggers import ClockCycles

from dpuv.models import link_protocol as protocol
from dpuv.drivers import traffic
from dpuv.harness import perf
from dpuv.regs import chain
from dpuv.tb.link_transport import CocotbLinkTransport
from dpuv.regs.board_link import ByteTransport, LinkAccess, LinkError
from dpuv.regs.access import BusError
from dpuv.regs.maps import id_block, perf_block, traffic_block
from dpuv.tb.testbench import start_clock_and_reset, test_rng
from link_coverage import MonitoredTransport

MAGIC_ADDRESS = id_block.BLOCK["MAGIC"].offset
SCRATCH_ADDRESS = id_block.BLOCK["SCRATCH"].offset


class NoisyTransport(ByteTransport):
    """Drops, duplicates and corrupts bytes in both directions at seeded rates."""

    def __init__(self, inner: ByteTransport, rng: random.Random, rate: float):
        self.inner, self.rng, self.rate = inner, rng, rate

    def _spoil(self, data: bytes) -> bytes:
        spoiled = bytearray()
        for byte in data:
            roll = self.rng.random()
            if roll < self.rate / 3:
                continue
            if roll < 2 * self.rate / 3:
                spoiled += bytes([byte, byte])
            elif roll < self.rate:
                spoiled.append(byte ^ (1 << self.rng.randrange(8)))
            else:
                spoiled.append(byte)
        return bytes(spoiled)

    async def send(self, data):
        await self.inner.send(self._spoil(data))

    async def receive(self, timeout):
        return self._spoil(await self.inner.receive(timeout))

    async def cycles(self, count):
        await self.inner.cycles(count)


class SilentTransport(ByteTransport):
    """A link whose far end never answers."""

    def __init__(self, inner: ByteTransport):
        self.inner = inner

    async def send(self, data):
        pass

    async def receive(self, timeout):
        await self.inner.receive(timeout)
        return b""

    async def cycles(self, count):
        await self.inner.cycles(count)


class TB:
    def __init__(self, dut):
        self.dut = dut
        # Every request the core is handed, and its answer, sampled for the link's coverage
        self.transport = MonitoredTransport(CocotbLinkTransport(dut, dut.clk, dut.rst))
        self.link = LinkAccess(self.transport, response_timeout=4e-6)

    async def reset(self):
        await start_clock_and_reset(self.dut.clk, self.dut.rst)

    async def exchange(self, frame: bytes) -> protocol.Response:
        """Send raw bytes and decode the one response they produce."""
        await self.transport.send(frame)
        received = b""
        while protocol.response_length(received) is None or len(received) < protocol.response_length(received):
            arrived = await self.transport.receive(4e-6)
            assert arrived, f"no response to {frame.hex()}"
            received += arrived
        return protocol.decode_response(received)


@cocotb.test(timeout_time=10, timeout_unit="us")
async def chain_walk_over_the_link(dut):
    tb = TB(dut)
    await tb.reset()
    found = await chain.walk(tb.link)
    assert [(block.address, block.type_name) for block in found] == [(0x0000, "DPID"), (0x1000, "PERF"), (0x2000, "TRAF")]
    ident = tb.link.window(0, id_block.BLOCK)
    assert await ident.read_field("BUILD_OPTIONS", "simulation") == 1


@cocotb.test(timeout_time=10, timeout_unit="us")
async def bursts_bytes_and_words_reach_the_registers(dut):
    tb = TB(dut)
    await tb.reset()
    block = await tb.link.read(0, 9 * 4)  # the whole ID block in one burst
    assert int.from_bytes(block[MAGIC_ADDRESS:MAGIC_ADDRESS + 4], "little") == 0x44505556
    await tb.link.write_dword(SCRATCH_ADDRESS, 0x12345678)
    await tb.link.write_byte(SCRATCH_ADDRESS + 1, 0xAB)
    assert await tb.link.read_dword(SCRATCH_ADDRESS) == 0x1234AB78


@cocotb.test(timeout_time=5, timeout_unit="us")
async def bus_errors_come_back_as_bus_errors(dut):
    tb = TB(dut)
    await tb.reset()
    past_traffic_registers = 0x2000 + traffic_block.BLOCK["CYCLES"].offset + 4
    for operation, address, response in [("read", 0x4000, "DECERR"), ("write", 0x4000, "DECERR"),
                                         ("write", MAGIC_ADDRESS, "SLVERR"), ("read", past_traffic_registers, "SLVERR"),
                                         ("read", 0x3FFC, "SLVERR")]:
        try:
            if operation == "read":
                await tb.link.read_dword(address)
            else:
                await tb.link.write_dword(address, 1)
        except BusError as error:
            assert error.response == response and error.address == address
        else:
            raise AssertionError(f"{operation} at {address:#x} should answer {response}")
    # A burst running past the ID block's last register: three words, then the error.
    partial = await tb.exchange(protocol.read_request(7, 0x18, 4).encode())
    assert partial.status == protocol.Status.SLVERR and len(partial.words) == 3


@cocotb.test(timeout_time=5, timeout_unit="us")
async def malformed_frames_are_answered_not_executed(dut):
    tb = TB(dut)
    await tb.reset()
    spoiled = bytearray(protocol.write_request(3, SCRATCH_ADDRESS, [0xBAD]).encode())
    spoiled[-1] ^= 0xFF
    assert (await tb.exchange(bytes(spoiled))).status == protocol.Status.BAD_CRC
    for request in [protocol.Request(4, protocol.Op.READ, 0, 0), protocol.Request(5, protocol.Op.READ, 0, 17),
                    protocol.Request(6, protocol.Op.READ, 2, 1), protocol.Request(7, 3, 0, 1),
                    protocol.Request(8, protocol.Op.READ, 0x10000, 1),
                    protocol.write_request(9, 0x10000 + SCRATCH_ADDRESS, [0xBAD])]:
        assert (await tb.exchange(request.encode())).status == protocol.Status.BAD_REQUEST, request
    assert await tb.link.read_dword(SCRATCH_ADDRESS) == 0, "a refused write reached the register"


@cocotb.test(timeout_time=20, timeout_unit="us")
async def a_frame_cut_short_is_dropped_and_the_next_one_works(dut):
    tb = TB(dut)
    await tb.reset()
    await tb.transport.send(protocol.write_request(9, SCRATCH_ADDRESS, [0x55]).encode()[:6])
    await ClockCycles(dut.clk, 400)  # longer than the link timeout of the bench
    assert await tb.link.read_dword(SCRATCH_ADDRESS) == 0
    await tb.link.write_dword(SCRATCH_ADDRESS, 0x600D)
    assert await tb.link.read_dword(SCRATCH_ADDRESS) == 0x600D


@cocotb.test(timeout_time=1, timeout_unit="ms")
async def a_noisy_link_costs_retries_never_a_wrong_value(dut):
    tb = TB(dut)
    await tb.reset()
    rng = test_rng("noisy")
    noisy = LinkAccess(NoisyTransport(tb.transport, rng, rate=0.02), response_timeout=4e-6, attempts=12)
    for value in (rng.getrandbits(32) for _ in range(25)):
        await noisy.write_dword(SCRATCH_ADDRESS, value)
        assert await noisy.read_dword(SCRATCH_ADDRESS) == value
        assert await noisy.read_dword(MAGIC_ADDRESS) == 0x44505556
    assert noisy.retries > 0, "the noise never hit: raise the rate or the count"
    dut._log.info("noisy link: %d retries over 75 transactions", noisy.retries)


@cocotb.test(timeout_time=20, timeout_unit="us")
async def a_silent_link_fails_with_a_clear_message(dut):
    tb = TB(dut)
    await tb.reset()
    silent = LinkAccess(SilentTransport(tb.transport), response_timeout=1e-6, attempts=3)
    try:
        await silent.read_dword(MAGIC_ADDRESS)
    except LinkError as error:
        assert "no valid answer from the link after 3 attempts" in str(error)
    else:
        raise AssertionError("a silent link returned a value")


@cocotb.test(timeout_time=200, timeout_unit="us")
async def the_self_test_moves_data_through_the_loopback(dut):
    """The traffic block's verdict, the core's own counters and the pattern all agree."""
    tb = TB(dut)
    await tb.reset()
    found = await chain.walk(tb.link)
    traffic_window = chain.blocks_of_type(found, traffic_block.BLOCK)[0].window(tb.link)
    counters = chain.blocks_of_type(found, perf_block.BLOCK)[0].window(tb.link)
    rng = test_rng("self-test")
    before = await perf.read_counters(counters)
    result = await traffic.run(traffic_window, 40, 16, rng.getrandbits(32))
    after = await perf.read_counters(counters)
    dut._log.info("loopback self-test: %s", result.summary())
    assert result.clean, result.summary()
    assert after["beats"] - before["beats"] == result.counters["BEATS_RECEIVED"] == 40 * 16
    # The FIFO stores a whole frame before sending it: one frame of latency, no bubbles after.
    assert result.counters["CYCLES"] <= 40 * 16 + 16 + 8, result.summary()
    # Frames longer than the loopback FIFO are dropped by it: the checker sees them go missing.
    oversize = await traffic.run(traffic_window, 3, 65, rng.getrandbits(32), timeout_cycles=2000)
    assert not oversize.clean and oversize.counters["FRAMES_RECEIVED"] == 0, oversize.summary()
    later = await perf.read_counters(counters)
    assert later["events"] - after["events"] == 3, "the core did not count the dropped frames"
    # And a clean run right after: nothing stuck.
    assert (await traffic.run(traffic_window, 4, 64, rng.getrandbits(32))).clean
