# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""axi_write_arbiter: every port's writes land byte-exact whatever the other ports do, nothing
else in memory changes; each address reaches the slave unchanged but for its port's index above
the master's ID; write data follows the addresses burst by burst, never interleaved; responses go
back only to the port that wrote; busy ports take round-robin turns.

The design runs inside axi_write_arbiter_wrap, which gives each port its own s<NN>_axi_* signals
for cocotbext-axi's masters."""

import cocotb
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import AxiMasterWrite, AxiProt, AxiRamWrite, AxiResp, AxiWriteBus

from dpuv.models.round_robin import longest_waits
from dpuv.tb.testbench import (PAUSE_OPTIONS, AddressMonitor, pauses, pulse_reset, quiet, start_clock_and_reset,
                                test_rng)

# Each port writes only its own region, so the memory's final state does not depend on how the
# ports' writes interleave; within a region every write has its own stretch, so neither does it
# depend on the order of one port's writes.
REGION_BYTES = 1 << 15
WRITES_PER_PORT = 24


class WriteBeatMonitor:
    """Records every write data beat (wdata, wstrb, wlast) taken on some W channels, in order. One
    coroutine watches every prefix given (`m_axi_w`, `s00_axi_w`, ...)."""

    def __init__(self, dut, prefixes: list[str]):
        self.clock = dut.clk
        self.channels = {prefix: [getattr(dut, f"{prefix}{name}") for name in ("valid", "ready", "data", "strb", "last")]
                         for prefix in prefixes}
        self.beats: dict[str, list[tuple[int, int, int]]] = {prefix: [] for prefix in prefixes}
        cocotb.start_soon(self._run())

    def clear(self) -> None:
        for beats in self.beats.values():
            beats.clear()

    async def _run(self) -> None:
        while True:
            await RisingEdge(self.clock)
            for prefix, (valid, ready, data, strb, last) in self.channels.items():
                if valid.value == 1 and ready.value == 1:
                    self.beats[prefix].append((int(data.value), int(strb.value), int(last.value)))


class TB:
    def __init__(self, dut, rng, master_pauses=None, slave_pauses=None):
        self.dut = dut
        self.rng = rng
        self.ports = int(dut.PORTS.value)
        self.id_width = int(dut.S_ID_WIDTH.value)
        self.bytes_per_beat = len(dut.m_axi_wdata) // 8
        self.prefixes = [f"s{port:02d}_axi" for port in range(self.ports)]
        self.memory = bytearray(rng.randbytes(self.ports * REGION_BYTES))
        self.ram = AxiRamWrite(AxiWriteBus.from_prefix(dut, "m_axi"), dut.clk, dut.rst, size=len(self.memory))
        self.ram.write(0, bytes(self.memory))
        quiet(self.ram, self.ram.aw_channel, self.ram.w_channel, self.ram.b_channel)
        for channel in (self.ram.aw_channel, self.ram.w_channel, self.ram.b_channel):
            channel.set_pause_generator(pauses(rng, slave_pauses))
        self.masters = []
        for prefix in self.prefixes:
            master = AxiMasterWrite(AxiWriteBus.from_prefix(dut, prefix), dut.clk, dut.rst)
            quiet(master, master.aw_channel, master.w_channel, master.b_channel)
            for channel in (master.aw_channel, master.w_channel, master.b_channel):
                channel.set_pause_generator(pauses(rng, master_pauses))
            self.masters.append(master)
        self.addresses = AddressMonitor(dut, [f"{prefix}_aw" for prefix in self.prefixes] + ["m_axi_aw"])
        self.data = WriteBeatMonitor(dut, [f"{prefix}_w" for prefix in self.prefixes] + ["m_axi_w"])

    async def reset(self):
        await start_clock_and_reset(self.dut.clk, self.dut.rst)

    def random_writes(self, port: int, count: int, first_stretch: int = 0, longest: int | None = None):
        """count writes (address, data, prot, cache) in port's region, each inside its own stretch
        of the region (stretches first_stretch to first_stretch + count - 1 of WRITES_PER_PORT);
        the master cuts them into bursts at 4 KiB boundaries."""
        rng = self.rng
        stretch_bytes = REGION_BYTES // WRITES_PER_PORT
        writes = []
        for stretch in range(first_stretch, first_stretch + count):
            limit = min(stretch_bytes, longest or stretch_bytes)
            length = rng.choice([1, self.bytes_per_beat, self.bytes_per_beat + 1, rng.randint(1, 64),
                                 rng.randint(1, limit // 3), rng.randint(1, limit)])
            length = min(length, limit)
            address = port * REGION_BYTES + stretch * stretch_bytes + rng.randrange(0, stretch_bytes - length + 1)
            writes.append((address, rng.randbytes(length), AxiProt(rng.randrange(8)), rng.randrange(16)))
        return writes

    async def write_all(self, port: int, writes):
        """Every write of one port issued at once, so the master keeps several bursts in flight;
        the responses in the same order (None for a write a reset flushed)."""
        events = [self.masters[port].init_write(address, data, prot=prot, cache=cache)
                  for address, data, prot, cache in writes]
        responses = []
        for event in events:
            await event.wait()
            responses.append(event.data)
        return responses

    async def write_from_every_port(self, writes):
        tasks = [cocotb.start_soon(self.write_all(port, port_writes)) for port, port_writes in enumerate(writes)]
        responses = [await task for task in tasks]
        for port in range(self.ports):
            for (address, data, _, _), response in zip(writes[port], responses[port], strict=True):
                assert response.resp == AxiResp.OKAY, f"port {port}: write at {address:#x} answered {response.resp!r}"
                self.memory[address:address + len(data)] = data

    def check_memory(self, start: int = 0, end: int | None = None):
        end = len(self.memory) if end is None else end
        stored, expected = self.ram.read(start, end - start), bytes(self.memory[start:end])
        if stored != expected:
            offset = next(offset for offset, (got, wanted) in enumerate(zip(stored, expected)) if got != wanted)
            raise AssertionError(f"memory byte {start + offset:#x} is {stored[offset]:#04x}, "
                                 f"expected {expected[offset]:#04x}")

    def check_addresses(self):
        """Each port's addresses reach the slave in its order, unchanged but for the port index
        above the master's ID, and no address comes from nowhere."""
        issued = self.addresses.addresses["m_axi_aw"]
        requested_count = 0
        for port, prefix in enumerate(self.prefixes):
            requested = self.addresses.addresses[f"{prefix}_aw"]
            requested_count += len(requested)
            expected = [{**address, "id": port << self.id_width | address["id"]} for address in requested]
            forwarded = [address for address in issued if address["id"] >> self.id_width == port]
            assert forwarded == expected, f"port {port}: the slave saw other addresses than the master sent"
        assert len(issued) == requested_count, f"{len(issued)} addresses issued for {requested_count} requested"

    def check_data_follows_addresses(self):
        """The slave's write data is the bursts of the ports in the order of their addresses: each
        burst whole (awlen + 1 beats, WLAST on the last only), from the port the address came from."""
        slave_beats = self.data.beats["m_axi_w"]
        port_beats = [list(self.data.beats[f"{prefix}_w"]) for prefix in self.prefixes]
        taken = 0
        for index, address in enumerate(self.addresses.addresses["m_axi_aw"]):
            port, beats = address["id"] >> self.id_width, address["len"] + 1
            burst = slave_beats[taken:taken + beats]
            assert burst == port_beats[port][:beats], \
                f"burst {index} ({beats} beats from port {port}) reached the slave as other beats"
            assert [last for _, _, last in burst] == [0] * (beats - 1) + [1], f"burst {index}: WLAST misplaced"
            del port_beats[port][:beats]
            taken += beats
        assert taken == len(slave_beats), f"{len(slave_beats) - taken} write beats after the last burst"
        assert not any(port_beats), "write beats taken from a port but never passed on"

    def grant_order(self) -> list[int]:
        return [address["id"] >> self.id_width for address in self.addresses.addresses["m_axi_aw"]]


@cocotb.test(timeout_time=200, timeout_unit="us")
@cocotb.parametrize(master_pauses=PAUSE_OPTIONS, slave_pauses=PAUSE_OPTIONS)
async def every_port_writes_its_bytes_exactly(dut, master_pauses, slave_pauses):
    rng = test_rng("writes", master_pauses, slave_pauses)
    tb = TB(dut, rng, master_pauses, slave_pauses)
    await tb.reset()
    await tb.write_from_every_port([tb.random_writes(port, WRITES_PER_PORT) for port in range(tb.ports)])
    await ClockCycles(dut.clk, 10)
    tb.check_memory()
    tb.check_addresses()
    tb.check_data_follows_addresses()


@cocotb.test(timeout_time=10, timeout_unit="us")
@cocotb.parametrize(slave_pauses=PAUSE_OPTIONS)
async def busy_ports_take_round_robin_turns(dut, slave_pauses):
    rng = test_rng("turns", slave_pauses)
    tb = TB(dut, rng, None, slave_pauses)
    # Short writes queued while reset is on (the masters drop what they hold when it starts):
    # every port asks from the first cycle after it to its last grant
    writes = [tb.random_writes(port, rng.randint(12, WRITES_PER_PORT), longest=4 * tb.bytes_per_beat)
              for port in range(tb.ports)]
    resetting = cocotb.start_soon(tb.reset())
    await ClockCycles(dut.clk, 1)
    pending = cocotb.start_soon(tb.write_from_every_port(writes))
    await resetting
    await pending
    order = tb.grant_order()
    waits = longest_waits(order, tb.ports)
    assert max(waits) <= tb.ports - 1, f"grant order {order}: the longest waits per port are {waits}"
    tb.check_memory()
    tb.check_addresses()
    tb.check_data_follows_addresses()


@cocotb.test(timeout_time=100, timeout_unit="us")
async def reset_in_mid_traffic_then_clean_traffic(dut):
    rng = test_rng("reset")
    tb = TB(dut, rng, 0.3, 0.3)
    await tb.reset()
    # Before the reset, the first half of each region; what lands there is cut short at random
    half = WRITES_PER_PORT // 2
    for port in range(tb.ports):
        cocotb.start_soon(tb.write_all(port, tb.random_writes(port, half)))
    await ClockCycles(dut.clk, 150)
    await pulse_reset(dut.clk, dut.rst)
    tb.addresses.clear()
    tb.data.clear()
    await tb.write_from_every_port([tb.random_writes(port, half, first_stretch=half) for port in range(tb.ports)])
    await ClockCycles(dut.clk, 10)
    stretch_bytes = REGION_BYTES // WRITES_PER_PORT
    for port in range(tb.ports):
        tb.check_memory(port * REGION_BYTES + half * stretch_bytes, (port + 1) * REGION_BYTES)
    tb.check_addresses()
    tb.check_data_follows_addresses()
