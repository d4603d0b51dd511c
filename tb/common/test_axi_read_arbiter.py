# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""axi_read_arbiter: every port reads the memory's own bytes whatever the other ports do; each
address reaches the slave unchanged but for its port's index above the master's ID; read data
goes back only to the port that asked; busy ports take round-robin turns.

The design runs inside axi_read_arbiter_wrap, which gives each port its own s<NN>_axi_* signals
for cocotbext-axi's masters."""

import cocotb
from cocotb.triggers import ClockCycles
from cocotbext.axi import AxiMasterRead, AxiProt, AxiRamRead, AxiReadBus, AxiResp

from dpuv.models.round_robin import longest_waits
from dpuv.tb.testbench import (PAUSE_OPTIONS, AddressMonitor, pauses, pulse_reset, quiet, start_clock_and_reset,
                                test_rng)

MEMORY_BYTES = 1 << 16
READS_PER_PORT = 24


class TB:
    def __init__(self, dut, rng, master_pauses=None, slave_pauses=None):
        self.dut = dut
        self.rng = rng
        self.ports = int(dut.PORTS.value)
        self.id_width = int(dut.S_ID_WIDTH.value)
        self.bytes_per_beat = len(dut.m_axi_rdata) // 8
        self.prefixes = [f"s{port:02d}_axi" for port in range(self.ports)]
        self.memory = rng.randbytes(MEMORY_BYTES)
        self.ram = AxiRamRead(AxiReadBus.from_prefix(dut, "m_axi"), dut.clk, dut.rst, size=MEMORY_BYTES)
        self.ram.write(0, self.memory)
        quiet(self.ram, self.ram.ar_channel, self.ram.r_channel)
        self.ram.ar_channel.set_pause_generator(pauses(rng, slave_pauses))
        self.ram.r_channel.set_pause_generator(pauses(rng, slave_pauses))
        self.masters = []
        for prefix in self.prefixes:
            master = AxiMasterRead(AxiReadBus.from_prefix(dut, prefix), dut.clk, dut.rst)
            quiet(master, master.ar_channel, master.r_channel)
            master.ar_channel.set_pause_generator(pauses(rng, master_pauses))
            master.r_channel.set_pause_generator(pauses(rng, master_pauses))
            self.masters.append(master)
        self.addresses = AddressMonitor(dut, [f"{prefix}_ar" for prefix in self.prefixes] + ["m_axi_ar"])

    async def reset(self):
        await start_clock_and_reset(self.dut.clk, self.dut.rst)

    def random_read(self, longest: int = 4000):
        """(address, length, prot, cache) of a read anywhere in memory; the master cuts it into
        bursts at 4 KiB boundaries."""
        rng = self.rng
        length = rng.choice([1, self.bytes_per_beat, self.bytes_per_beat + 1, rng.randint(1, 64),
                             rng.randint(1, longest // 3), rng.randint(1, longest)])
        return rng.randrange(0, MEMORY_BYTES - length), length, AxiProt(rng.randrange(8)), rng.randrange(16)

    async def read_all(self, port: int, reads):
        """Every read of one port issued at once, so the master keeps several bursts in flight;
        the responses in the same order (None for a read a reset flushed)."""
        events = [self.masters[port].init_read(address, length, prot=prot, cache=cache)
                  for address, length, prot, cache in reads]
        responses = []
        for event in events:
            await event.wait()
            responses.append(event.data)
        return responses

    async def read_from_every_port(self, reads):
        tasks = [cocotb.start_soon(self.read_all(port, port_reads)) for port, port_reads in enumerate(reads)]
        return [await task for task in tasks]

    def check_data(self, reads, responses):
        for port in range(self.ports):
            for (address, length, _, _), response in zip(reads[port], responses[port], strict=True):
                assert response.resp == AxiResp.OKAY, f"port {port}: read at {address:#x} answered {response.resp!r}"
                assert response.data == self.memory[address:address + length], \
                    f"port {port}: {length} bytes from {address:#x} differ from memory"

    def check_addresses(self):
        """Each port's addresses reach the slave in its order, unchanged but for the port index
        above the master's ID, and no address comes from nowhere."""
        issued = self.addresses.addresses["m_axi_ar"]
        requested_count = 0
        for port, prefix in enumerate(self.prefixes):
            requested = self.addresses.addresses[f"{prefix}_ar"]
            requested_count += len(requested)
            expected = [{**address, "id": port << self.id_width | address["id"]} for address in requested]
            forwarded = [address for address in issued if address["id"] >> self.id_width == port]
            assert forwarded == expected, f"port {port}: the slave saw other addresses than the master sent"
        assert len(issued) == requested_count, f"{len(issued)} addresses issued for {requested_count} requested"

    def grant_order(self) -> list[int]:
        return [address["id"] >> self.id_width for address in self.addresses.addresses["m_axi_ar"]]


@cocotb.test(timeout_time=1, timeout_unit="ms")
@cocotb.parametrize(master_pauses=PAUSE_OPTIONS, slave_pauses=PAUSE_OPTIONS)
async def every_port_reads_the_memorys_bytes(dut, master_pauses, slave_pauses):
    rng = test_rng("reads", master_pauses, slave_pauses)
    tb = TB(dut, rng, master_pauses, slave_pauses)
    await tb.reset()
    reads = [[tb.random_read() for _ in range(READS_PER_PORT)] for _ in range(tb.ports)]
    responses = await tb.read_from_every_port(reads)
    tb.check_data(reads, responses)
    await ClockCycles(dut.clk, 10)
    tb.check_addresses()


@cocotb.test(timeout_time=10, timeout_unit="us")
@cocotb.parametrize(slave_pauses=PAUSE_OPTIONS)
async def busy_ports_take_round_robin_turns(dut, slave_pauses):
    rng = test_rng("turns", slave_pauses)
    tb = TB(dut, rng, None, slave_pauses)
    # Short reads queued while reset is on (the masters drop what they hold when it starts): every
    # port asks from the first cycle after it to its last grant
    reads = [[tb.random_read(longest=4 * tb.bytes_per_beat) for _ in range(rng.randint(12, 24))]
             for _ in range(tb.ports)]
    resetting = cocotb.start_soon(tb.reset())
    await ClockCycles(dut.clk, 1)
    pending = cocotb.start_soon(tb.read_from_every_port(reads))
    await resetting
    tb.check_data(reads, await pending)
    order = tb.grant_order()
    waits = longest_waits(order, tb.ports)
    assert max(waits) <= tb.ports - 1, f"grant order {order}: the longest waits per port are {waits}"
    tb.check_addresses()


@cocotb.test(timeout_time=100, timeout_unit="us")
async def reset_in_mid_traffic_then_clean_traffic(dut):
    rng = test_rng("reset")
    tb = TB(dut, rng, 0.3, 0.3)
    await tb.reset()
    for port in range(tb.ports):
        cocotb.start_soon(tb.read_all(port, [tb.random_read() for _ in range(6)]))
    await ClockCycles(dut.clk, 150)
    await pulse_reset(dut.clk, dut.rst)
    tb.addresses.clear()
    reads = [[tb.random_read() for _ in range(6)] for _ in range(tb.ports)]
    responses = await tb.read_from_every_port(reads)
    tb.check_data(reads, responses)
    await ClockCycles(dut.clk, 10)
    tb.check_addresses()
