# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""axi_window_split: every burst reaches the slave its first byte names, unchanged; every answer
comes back to the master in the order it asked, whichever slave gave it; a reset in mid-traffic
leaves nothing behind.

Two cocotbext-axi RAMs stand for the slaves: the rest of the address space (REST_BYTES from 0) and
the window (WINDOW_BYTES from WINDOW_BASE). Both start with different random bytes, so a burst
sent to the wrong one reads or changes bytes it should not."""

import cocotb
from cocotb.triggers import ClockCycles
from cocotbext.axi import AxiBus, AxiMaster, AxiRam, AxiResp

from dpuv.tb.testbench import PAUSE_OPTIONS, AddressMonitor, pauses, pulse_reset, quiet, start_clock_and_reset, test_rng

REST_BYTES = 1 << 16
SLAVES = ("m_rest_axi", "m_window_axi")


def quiet_and_pause(rng, probability, write_if, read_if) -> None:
    """Warnings only from one side's models, and its five channels paused at random."""
    channels = (write_if.aw_channel, write_if.w_channel, write_if.b_channel, read_if.ar_channel, read_if.r_channel)
    quiet(write_if, read_if, *channels)
    for channel in channels:
        channel.set_pause_generator(pauses(rng, probability))


class TB:
    def __init__(self, dut, rng, master_pauses=None, slave_pauses=(None, None)):
        self.dut = dut
        self.rng = rng
        self.window_base = int(dut.WINDOW_BASE.value)
        self.window_bytes = int(dut.WINDOW_BYTES.value)
        self.bytes_per_beat = len(dut.s_axi_wdata) // 8
        self.master = AxiMaster(AxiBus.from_prefix(dut, "s_axi"), dut.clk, dut.rst)
        self.rams = [AxiRam(AxiBus.from_prefix(dut, prefix), dut.clk, dut.rst, size=size)
                     for prefix, size in zip(SLAVES, (REST_BYTES, self.window_bytes), strict=True)]
        # What each slave should hold: the testbench's model of both memories
        self.expected = [bytearray(rng.randbytes(REST_BYTES)), bytearray(rng.randbytes(self.window_bytes))]
        for ram, contents, slave_pause in zip(self.rams, self.expected, slave_pauses, strict=True):
            ram.write(0, bytes(contents))
            quiet_and_pause(rng, slave_pause, ram.write_if, ram.read_if)
        quiet_and_pause(rng, master_pauses, self.master.write_if, self.master.read_if)
        self.addresses = AddressMonitor(dut, [f"{prefix}_{channel}" for prefix in ("s_axi", *SLAVES)
                                              for channel in ("aw", "ar")])

    async def reset(self):
        await start_clock_and_reset(self.dut.clk, self.dut.rst)

    def slave_of(self, address: int) -> int:
        return 1 if self.window_base <= address < self.window_base + self.window_bytes else 0

    def base_of(self, slave: int) -> int:
        return self.window_base if slave else 0

    def random_range(self, slave: int | None = None, longest: int = 3000) -> tuple[int, int]:
        """(address, length) in the rest of memory or the window (the master cuts it at 4 KiB)."""
        rng = self.rng
        slave = rng.randrange(2) if slave is None else slave
        size = len(self.expected[slave])
        length = rng.choice([1, self.bytes_per_beat, rng.randint(1, 64), rng.randint(1, longest)])
        return self.base_of(slave) + rng.randrange(0, size - length), length

    def disjoint_ranges(self, count: int) -> list[tuple[int, int]]:
        """Ranges in both slaves that overlap no other, so writes in flight at once have one outcome."""
        taken: list[tuple[int, int]] = []
        while len(taken) < count:
            address, length = self.random_range(longest=1500)
            if all(address + length <= start or start + size <= address for start, size in taken):
                taken.append((address, length))
        return taken

    def model_write(self, address: int, data: bytes) -> None:
        slave = self.slave_of(address)
        offset = address - self.base_of(slave)
        self.expected[slave][offset:offset + len(data)] = data

    def model_read(self, address: int, length: int) -> bytes:
        slave = self.slave_of(address)
        offset = address - self.base_of(slave)
        return bytes(self.expected[slave][offset:offset + length])

    async def write_all(self, ranges, awid=None):
        """Every write issued at once (several bursts in flight), each answered OKAY."""
        data = [self.rng.randbytes(length) for _, length in ranges]
        events = [self.master.init_write(address, payload, awid=awid)
                  for (address, _), payload in zip(ranges, data, strict=True)]
        for (address, _), payload, event in zip(ranges, data, events, strict=True):
            await event.wait()
            assert event.data.resp == AxiResp.OKAY, f"write at {address:#x} answered {event.data.resp!r}"
            self.model_write(address, payload)

    async def read_all(self, ranges, arid=None):
        """Every read issued at once; each returns the model's bytes."""
        events = [self.master.init_read(address, length, arid=arid) for address, length in ranges]
        for (address, length), event in zip(ranges, events, strict=True):
            await event.wait()
            assert event.data.resp == AxiResp.OKAY, f"read at {address:#x} answered {event.data.resp!r}"
            assert event.data.data == self.model_read(address, length), \
                f"{length} bytes read from {address:#x} are not what that {SLAVES[self.slave_of(address)]} holds"

    def check_memories(self):
        for slave, (ram, expected) in enumerate(zip(self.rams, self.expected, strict=True)):
            assert ram.read(0, len(expected)) == bytes(expected), f"{SLAVES[slave]} does not hold what was written"

    def check_addresses(self):
        """Each slave saw exactly the master's bursts that start in its range, in the master's order,
        every field unchanged."""
        for channel in ("aw", "ar"):
            requested = self.addresses.addresses[f"s_axi_{channel}"]
            for slave, prefix in enumerate(SLAVES):
                expected = [burst for burst in requested if self.slave_of(burst["addr"]) == slave]
                seen = self.addresses.addresses[f"{prefix}_{channel}"]
                assert seen == expected, f"{prefix}_{channel}: {len(seen)} bursts seen, {len(expected)} of the master's"


@cocotb.test(timeout_time=1, timeout_unit="ms")
@cocotb.parametrize(master_pauses=PAUSE_OPTIONS, slave_pauses=PAUSE_OPTIONS)
async def every_burst_reaches_the_slave_its_address_names(dut, master_pauses, slave_pauses):
    rng = test_rng("bursts", master_pauses, slave_pauses)
    tb = TB(dut, rng, master_pauses, (slave_pauses, slave_pauses))
    await tb.reset()
    await tb.write_all(tb.disjoint_ranges(24))
    await tb.read_all([tb.random_range() for _ in range(24)])
    tb.check_memories()
    tb.check_addresses()


@cocotb.test(timeout_time=1, timeout_unit="ms")
async def answers_keep_the_masters_order_when_one_slave_is_slower(dut):
    # One ID for everything and bursts that alternate between a slow and a fast slave: an answer
    # that overtook the one before it would be taken as that one's
    rng = test_rng("order")
    tb = TB(dut, rng, None, (0.6, None))
    await tb.reset()
    disjoint = tb.disjoint_ranges(32)
    by_slave = [[item for item in disjoint if tb.slave_of(item[0]) == slave] for slave in range(2)]
    alternating = [item for pair in zip(*by_slave) for item in pair]
    await tb.write_all(alternating, awid=0)
    await tb.read_all([tb.random_range(slave=index % 2, longest=4 * tb.bytes_per_beat) for index in range(32)], arid=0)
    tb.check_memories()
    tb.check_addresses()


@cocotb.test(timeout_time=200, timeout_unit="us")
async def reset_in_mid_traffic_then_clean_traffic(dut):
    rng = test_rng("reset")
    tb = TB(dut, rng, 0.3, (0.3, 0.3))
    await tb.reset()
    # Traffic to cut: writes and reads in flight at once (their outcome is not checked: a read may
    # overlap a write in flight, and the reset cuts both)
    for address, length in tb.disjoint_ranges(6):
        tb.master.init_write(address, tb.rng.randbytes(length))
    for address, length in [tb.random_range() for _ in range(6)]:
        tb.master.init_read(address, length)
    await ClockCycles(dut.clk, 150)
    await pulse_reset(dut.clk, dut.rst)
    # Whatever the cut writes left is what the memories hold now
    for slave, ram in enumerate(tb.rams):
        tb.expected[slave][:] = ram.read(0, len(tb.expected[slave]))
    tb.addresses.clear()
    await tb.write_all(tb.disjoint_ranges(12))
    await tb.read_all([tb.random_range() for _ in range(12)])
    tb.check_memories()
    tb.check_addresses()
