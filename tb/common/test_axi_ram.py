# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""axi_ram: every byte read back as the last write left it, strobes honoured byte by byte, each
response and read beat with its burst's ID and RLAST on the last beat, one beat per cycle on both
channels at once, errors for bursts outside the memory or of an unsupported kind (nothing
written), and exact traffic after a reset in mid-burst.

The peer is cocotbext-axi's AxiMaster; the reference is a bytearray of the memory, and a monitor
of every handshake checks IDs, RLAST and each burst's answer from the burst's own fields. The
memory array is loaded and compared through the simulator (a backdoor), so a check of what a
write left does not depend on the read path."""

import itertools

import cocotb
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import AxiBurstType, AxiBus, AxiMaster, AxiResp

from dpuv.tb.testbench import PAUSE_OPTIONS, CycleCounter, pauses, pulse_reset, quiet, start_clock_and_reset, test_rng
from dpuv.tb.ram_backdoor import RamBackdoor

PAGE_BYTES = 4096


def burst_answer(address: int, beats: int, size: int, burst: int, base: int, memory_bytes: int,
                 bus_bytes: int) -> AxiResp:
    """What the RAM must answer a burst, by its documented rules: INCR of a size up to the bus
    width, every byte inside [base, base + memory_bytes), else SLVERR (kind) or DECERR (range)."""
    beat_bytes = 1 << size
    if burst != AxiBurstType.INCR or beat_bytes > bus_bytes:
        return AxiResp.SLVERR
    first = address - base - (address - base) % beat_bytes
    if address < base or first + beats * beat_bytes > memory_bytes:
        return AxiResp.DECERR
    return AxiResp.OKAY


class Handshakes:
    """Every handshake on the five channels, with its cycle and the fields that matter here."""

    FIELDS = {"aw": ("id", "addr", "len", "size", "burst"), "w": ("strb",), "b": ("id", "resp"),
              "ar": ("id", "addr", "len", "size", "burst"), "r": ("id", "resp", "last")}

    def __init__(self, dut, cycles: CycleCounter):
        self.dut, self.cycles = dut, cycles
        self.seen = {channel: [] for channel in self.FIELDS}
        cocotb.start_soon(self._run())

    def clear(self) -> None:
        for records in self.seen.values():
            records.clear()

    async def _run(self) -> None:
        signals = {channel: (getattr(self.dut, f"s_axi_{channel}valid"), getattr(self.dut, f"s_axi_{channel}ready"),
                             {name: getattr(self.dut, f"s_axi_{channel}{name}") for name in names})
                   for channel, names in self.FIELDS.items()}
        while True:
            await RisingEdge(self.dut.clk)
            for channel, (valid, ready, fields) in signals.items():
                if valid.value == 1 and ready.value == 1:
                    record = {name: int(handle.value) for name, handle in fields.items()}
                    record["cycle"] = self.cycles.now
                    self.seen[channel].append(record)

    def cycles_of(self, channel: str) -> list[int]:
        return [record["cycle"] for record in self.seen[channel]]


class TB:
    def __init__(self, dut, rng, master_pauses=None, response_pauses=None):
        self.dut, self.rng = dut, rng
        self.bus_bytes = len(dut.s_axi_wdata) // 8
        self.base = int(dut.BASE_ADDRESS.value)
        self.memory_bytes = int(dut.SIZE_BYTES.value)
        self.end = self.base + self.memory_bytes
        self.master = AxiMaster(AxiBus.from_prefix(dut, "s_axi"), dut.clk, dut.rst)
        write, read = self.master.write_if, self.master.read_if
        quiet(write, read, write.aw_channel, write.w_channel, write.b_channel, read.ar_channel, read.r_channel)
        for channel in (write.aw_channel, write.w_channel, read.ar_channel):
            channel.set_pause_generator(pauses(rng, master_pauses))
        for channel in (write.b_channel, read.r_channel):
            channel.set_pause_generator(pauses(rng, response_pauses))
        self.cycles = CycleCounter(dut.clk)
        self.handshakes = Handshakes(dut, self.cycles)
        self.model = bytearray(rng.randbytes(self.memory_bytes))

    async def reset(self):
        self.load(self.model)
        await start_clock_and_reset(self.dut.clk, self.dut.rst)

    # ---- The memory array through the simulator ----

    def load(self, content: bytes) -> None:
        RamBackdoor(self.dut.memory, self.bus_bytes).write(0, content)

    def dump(self) -> bytes:
        return RamBackdoor(self.dut.memory, self.bus_bytes).read(0, self.memory_bytes)

    def check_memory(self) -> None:
        content = self.dump()
        if content != self.model:
            wrong = next(index for index in range(self.memory_bytes) if content[index] != self.model[index])
            raise AssertionError(f"memory differs from the model first at {self.base + wrong:#x}")

    # ---- Traffic ----

    def random_span(self, longest: int) -> tuple[int, int, int | None]:
        """(address, length, size) anywhere in the memory, unaligned; size None (the bus width)
        mostly, else a narrow one."""
        rng = self.rng
        length = rng.choice([1, self.bus_bytes, self.bus_bytes + 1, rng.randint(1, 64), rng.randint(1, longest),
                             rng.randint(1, longest)])
        address = self.base + rng.randrange(self.memory_bytes - length)
        size = rng.choice([None, None, None, rng.randrange(self.bus_bytes.bit_length())])
        return address, length, size

    async def write_all(self, writes, expect=AxiResp.OKAY):
        """Every write started at once (the master keeps them in flight), then waited for; the
        model takes those that must succeed."""
        events = [self.master.init_write(address, data, size=size) for address, data, size in writes]
        for (address, data, _), event in zip(writes, events, strict=True):
            await event.wait()
            assert event.data.resp == expect, f"write of {len(data)} at {address:#x} answered {event.data.resp!r}"
            if expect == AxiResp.OKAY:
                self.model[address - self.base:address - self.base + len(data)] = data

    async def read_all(self, reads, expect=AxiResp.OKAY):
        events = [self.master.init_read(address, length, size=size) for address, length, size in reads]
        for (address, length, _), event in zip(reads, events, strict=True):
            await event.wait()
            assert event.data.resp == expect, f"read of {length} at {address:#x} answered {event.data.resp!r}"
            if expect == AxiResp.OKAY:
                expected = self.model[address - self.base:address - self.base + length]
                assert event.data.data == expected, f"{length} bytes read at {address:#x} differ from the model"

    async def settle(self) -> None:
        await ClockCycles(self.dut.clk, 4)

    def check_handshakes(self) -> None:
        """Responses in address order with the burst's ID and answer; each read burst's beats
        carry its ID and answer, RLAST on the last beat only; every burst's W beats taken."""
        seen = self.handshakes.seen
        assert len(seen["b"]) == len(seen["aw"]), f"{len(seen['b'])} write responses for {len(seen['aw'])} bursts"
        assert len(seen["w"]) == sum(aw["len"] + 1 for aw in seen["aw"]), "write beats do not add up to the bursts"
        for aw, b in zip(seen["aw"], seen["b"]):
            answer = self.answer(aw)
            assert b["id"] == aw["id"], f"burst at {aw['addr']:#x}: bid {b['id']:#x}, awid {aw['id']:#x}"
            assert b["resp"] == answer, f"burst at {aw['addr']:#x}: bresp {b['resp']}, expected {answer!r}"
        beats = iter(seen["r"])
        for ar in seen["ar"]:
            answer = self.answer(ar)
            for index in range(ar["len"] + 1):
                r = next(beats, None)
                assert r is not None, f"read burst at {ar['addr']:#x} lacks beat {index}"
                assert r["id"] == ar["id"], f"read burst at {ar['addr']:#x} beat {index}: rid {r['id']:#x}"
                assert r["resp"] == answer, f"read burst at {ar['addr']:#x} beat {index}: rresp {r['resp']}"
                assert r["last"] == (index == ar["len"]), f"read burst at {ar['addr']:#x} beat {index}: rlast wrong"
        assert next(beats, None) is None, "read beats that no burst asked for"

    def answer(self, address_record) -> AxiResp:
        return burst_answer(address_record["addr"], address_record["len"] + 1, address_record["size"],
                            address_record["burst"], self.base, self.memory_bytes, self.bus_bytes)


@cocotb.test(timeout_time=1, timeout_unit="ms")
@cocotb.parametrize(master_pauses=PAUSE_OPTIONS, response_pauses=PAUSE_OPTIONS)
async def random_transfers_read_back_as_written(dut, master_pauses, response_pauses):
    """Rounds of random writes in flight together, then random reads, at random unaligned
    addresses, lengths and (now and then) narrow beat sizes."""
    rng = test_rng("random", master_pauses, response_pauses)
    tb = TB(dut, rng, master_pauses, response_pauses)
    await tb.reset()
    longest = 100 * tb.bus_bytes
    for _ in range(8):
        writes = [(address, rng.randbytes(length), size)
                  for address, length, size in (tb.random_span(longest) for _ in range(8))]
        await tb.write_all(writes)
        await tb.read_all([tb.random_span(longest) for _ in range(8)] + [(a, len(d), None) for a, d, _ in writes])
    await tb.settle()
    tb.check_handshakes()
    tb.check_memory()


@cocotb.test(timeout_time=5, timeout_unit="us")
async def write_strobes_touch_only_their_bytes(dut):
    """A write of every length from every lane, each into its own word: the bytes beside it,
    in the same beat, keep their value."""
    rng = test_rng("strobes")
    tb = TB(dut, rng)
    await tb.reset()
    lanes = range(tb.bus_bytes)
    shapes = [(lane, rng.randint(1, tb.bus_bytes - lane)) for lane in lanes]
    shapes += [(rng.randrange(tb.bus_bytes - length + 1), length) for length in range(1, tb.bus_bytes + 1)]
    # Two words apart, so a write that strays into the next word is seen
    writes = [(tb.base + 2 * index * tb.bus_bytes + lane, rng.randbytes(length), None)
              for index, (lane, length) in enumerate(shapes)]
    await tb.write_all(writes)
    await tb.settle()
    tb.check_memory()
    strobes = [w["strb"] for w in tb.handshakes.seen["w"]]
    expected = [((1 << length) - 1) << lane for lane, length in shapes]
    assert strobes == expected, "the master did not send the strobes this test relies on"
    tb.check_handshakes()


@cocotb.test(timeout_time=20, timeout_unit="us")
async def reads_and_writes_run_at_once(dut):
    """A stream of reads of one half of the memory and a stream of writes to the other, from two
    coroutines: both channels carry beats in the same cycles, and every byte is right."""
    rng = test_rng("concurrent")
    tb = TB(dut, rng)
    await tb.reset()
    half = tb.memory_bytes // 2
    span = 40 * tb.bus_bytes
    writes = [(tb.base + half + rng.randrange(half - span), rng.randbytes(rng.randint(1, span)), None)
              for _ in range(12)]
    reads = [(tb.base + rng.randrange(half - span), rng.randint(1, span), None) for _ in range(12)]
    writing = cocotb.start_soon(tb.write_all(writes))
    reading = cocotb.start_soon(tb.read_all(reads))
    await writing
    await reading
    await tb.settle()
    both = set(tb.handshakes.cycles_of("w")) & set(tb.handshakes.cycles_of("r"))
    fewer = min(len(tb.handshakes.seen["w"]), len(tb.handshakes.seen["r"]))
    assert len(both) >= fewer // 2, f"write and read beats shared only {len(both)} cycles of {fewer}"
    tb.check_handshakes()
    tb.check_memory()
    await tb.read_all([(address, len(data), None) for address, data, _ in writes])


@cocotb.test(timeout_time=50, timeout_unit="us")
async def bursts_follow_back_to_back_at_one_beat_per_cycle(dut):
    """512 beats written then read from a 4 KiB boundary (two 256-beat bursts at 64 bits, eight
    of 64 at 512, as bursts stop at 4 KiB): every beat in the cycle after the one before, the
    first W beat one cycle after its address, each response one cycle after its burst's last
    beat, the first read beat two cycles after its address."""
    rng = test_rng("throughput")
    tb = TB(dut, rng)
    await tb.reset()
    beats = 512
    address = -(-tb.base // PAGE_BYTES) * PAGE_BYTES
    data = rng.randbytes(beats * tb.bus_bytes)
    bursts = beats // min(256, PAGE_BYTES // tb.bus_bytes)
    await tb.write_all([(address, data, None)])
    await tb.read_all([(address, len(data), None)])
    await tb.settle()
    tb.check_handshakes()
    seen = tb.handshakes.seen
    assert len(seen["aw"]) == bursts and len(seen["ar"]) == bursts, f"{len(seen['aw'])} bursts instead of {bursts}"
    w_cycles, r_cycles = tb.handshakes.cycles_of("w"), tb.handshakes.cycles_of("r")
    write_span = w_cycles[-1] - w_cycles[0] + 1
    read_span = r_cycles[-1] - r_cycles[0] + 1
    dut._log.info("%d beats in %d bursts: W beats over %d cycles, R beats over %d cycles; AW to last B %d cycles, "
                  "AR to last R %d cycles", beats, bursts, write_span, read_span,
                  seen["b"][-1]["cycle"] - seen["aw"][0]["cycle"], r_cycles[-1] - seen["ar"][0]["cycle"])
    assert write_span == beats, f"{beats} write beats took {write_span} cycles"
    assert read_span == beats, f"{beats} read beats took {read_span} cycles"
    assert w_cycles[0] == seen["aw"][0]["cycle"] + 1, "the first write beat waited after its address"
    assert r_cycles[0] == seen["ar"][0]["cycle"] + 2, "the first read beat is not two cycles after its address"
    last_beats = list(itertools.accumulate(aw["len"] + 1 for aw in seen["aw"]))
    for burst, b in enumerate(seen["b"]):
        assert b["cycle"] == w_cycles[last_beats[burst] - 1] + 1, f"burst {burst}: response not in the next cycle"


@cocotb.test(timeout_time=20, timeout_unit="us")
async def responses_wait_for_bready_and_rready(dut):
    """bready and rready held low: two write responses wait and the last beat of the third burst
    is held, no read beat is lost; released, every response comes with its ID. Then random
    traffic under heavy backpressure on B and R."""
    rng = test_rng("backpressure")
    tb = TB(dut, rng)
    await tb.reset()
    hold = {"ready_low": True}
    write, read = tb.master.write_if, tb.master.read_if
    write.b_channel.set_pause_generator(hold["ready_low"] for _ in itertools.count())
    read.r_channel.set_pause_generator(hold["ready_low"] for _ in itertools.count())
    writes = [(tb.base + index * tb.bus_bytes, rng.randbytes(tb.bus_bytes), None) for index in range(6)]
    reads = [(tb.base + 100 * tb.bus_bytes, 4 * tb.bus_bytes, None)]
    writing = cocotb.start_soon(tb.write_all(writes))
    reading = cocotb.start_soon(tb.read_all(reads))
    await ClockCycles(dut.clk, 50)
    assert len(tb.handshakes.seen["w"]) == 2, f"{len(tb.handshakes.seen['w'])} bursts ended with bready low"
    assert not tb.handshakes.seen["r"] and dut.s_axi_rvalid.value == 1, "read beat not held for rready"
    hold["ready_low"] = False
    await writing
    await reading
    write.b_channel.set_pause_generator(pauses(rng, 0.7))
    read.r_channel.set_pause_generator(pauses(rng, 0.7))
    spans = [tb.random_span(8 * tb.bus_bytes) for _ in range(20)]
    await tb.write_all([(address, rng.randbytes(length), size) for address, length, size in spans])
    await tb.read_all(spans)
    await tb.settle()
    tb.check_handshakes()
    tb.check_memory()


@cocotb.test(timeout_time=2, timeout_unit="us")
async def errors_write_nothing(dut):
    """Bursts that straddle either end of the memory or lie beyond it answer DECERR; FIXED and
    WRAP answer SLVERR; none of them changes a byte, and reads of them answer the same."""
    rng = test_rng("errors")
    tb = TB(dut, rng)
    await tb.reset()
    beat = tb.bus_bytes
    # Straddles that stay within one 4 KiB page, so the master sends each as one burst
    low = max(tb.base - 2 * beat, tb.base // PAGE_BYTES * PAGE_BYTES)
    high = max(tb.end - 2 * beat, tb.end // PAGE_BYTES * PAGE_BYTES)
    assert low < tb.base and high < tb.end, "the bench's base puts the memory's ends on a page boundary"
    out_of_range = [(low, 2 * (tb.base - low)), (high, 2 * (tb.end - high)), (tb.end, beat),
                    (tb.end + 0x10000, 3 * beat + 5), (tb.base - 4 * beat, 3), ((1 << 40) + tb.base, beat)]
    await tb.write_all([(address, rng.randbytes(length), None) for address, length in out_of_range],
                       expect=AxiResp.DECERR)
    await tb.read_all([(address, length, None) for address, length in out_of_range], expect=AxiResp.DECERR)
    inside = tb.base + 8 * beat
    for kind in (AxiBurstType.FIXED, AxiBurstType.WRAP):
        event = tb.master.init_write(inside, rng.randbytes(4 * beat), burst=kind)
        await event.wait()
        assert event.data.resp == AxiResp.SLVERR, f"{kind!r} write answered {event.data.resp!r}"
        event = tb.master.init_read(inside, 4 * beat, burst=kind)
        await event.wait()
        assert event.data.resp == AxiResp.SLVERR, f"{kind!r} read answered {event.data.resp!r}"
    await tb.settle()
    tb.check_handshakes()
    tb.check_memory()
    edges = [(tb.base, beat, None), (tb.end - beat, beat, None)]
    await tb.write_all([(address, rng.randbytes(length), size) for address, length, size in edges])
    await tb.read_all(edges)


@cocotb.test(timeout_time=50, timeout_unit="us")
async def reset_in_mid_burst_then_exact_traffic(dut):
    """Reset while a long write and a long read are under way: the RAM is idle after it (no
    response or beat left over), the interrupted write touched only its own span, and traffic
    after it is exact."""
    rng = test_rng("reset")
    tb = TB(dut, rng, 0.3, 0.3)
    await tb.reset()
    length = 100 * tb.bus_bytes
    offset = rng.randrange(tb.memory_bytes - length)
    data = rng.randbytes(length)
    tb.master.init_write(tb.base + offset, data)
    tb.master.init_read(tb.base + rng.randrange(tb.memory_bytes - length), length)
    await ClockCycles(dut.clk, 60)
    assert tb.handshakes.seen["w"] and tb.handshakes.seen["r"], "the reset came before the bursts began"
    await pulse_reset(dut.clk, dut.rst)
    for name in ("bvalid", "rvalid"):
        assert getattr(dut, f"s_axi_{name}").value == 0, f"{name} survived the reset"
    assert dut.s_axi_awready.value == 1 and dut.s_axi_arready.value == 1, "an address survived the reset"
    content = tb.dump()
    changed = [index for index in range(tb.memory_bytes) if content[index] != tb.model[index]]
    assert all(offset <= index < offset + length for index in changed), "a write landed outside its span"
    tb.model[:] = content
    tb.handshakes.clear()
    spans = [tb.random_span(16 * tb.bus_bytes) for _ in range(16)]
    await tb.write_all([(address, rng.randbytes(length), size) for address, length, size in spans])
    await tb.read_all(spans)
    await tb.settle()
    tb.check_handshakes()
    tb.check_memory()
