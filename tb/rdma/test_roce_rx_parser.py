# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""roce_rx_parser: good RoCEv2 frames of every opcode come out exactly as src/dpuv/models/roce_packet.py
parses them (metadata and realigned payload, nothing else); every malformed frame is dropped with
the model's cause counted once; masked fields do not fail the ICRC; a stalled output drops whole
frames as overflow and keeps the rest intact; reset in mid-traffic leaves a clean parser.

The MAC side has no tready, so the TB drives it itself, one beat per clock unless it inserts an
idle cycle. One coroutine drives and samples every stream each cycle (it is the bench's only
per-cycle Python, which keeps the two widths and two simulators inside a minute)."""

from __future__ import annotations

import ipaddress
from collections import deque
from dataclasses import dataclass

import cocotb
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge

from dpuv.models.roce_packet import (AETH, BTH, ETHERNET_HEADER_BYTES, MIN_ETHERNET_FRAME_BYTES, OPCODE_INFO, PMTUS,
                                     RETH, Addressing, AtomicAckETH, AtomicETH, ImmDt, MalformedFrame, Opcode, Position,
                                     RocePacket,
                                     build_frame, parse_frame, parse_frame_or_none, reseal_icrc,
                                     with_ip_header)
from dpuv.tb.roce_header_bus import BUS_OPCODES, fields_of
from dpuv.tb.testbench import PAUSE_OPTIONS, pulse_reset, start_clock_and_reset, test_rng

# Good frames of the opcodes the parser's header bus carries. The unknown-opcode case below
# picks opcodes the model does not know either, so that both name the same cause
OPCODES = list(BUS_OPCODES)
GOOD = "good"
MAC_ERROR = "mac_error"
OVERFLOW = "overflow"
# status output -> what the TB calls the outcome (the model's MalformedCause values for the rest)
STATUS_OUTPUTS = {"status_frame_good": GOOD, "status_drop_mac_error": MAC_ERROR,
                  "status_drop_truncated": "truncated", "status_drop_not_roce": "not_roce",
                  "status_drop_bad_length": "bad_length", "status_drop_bad_version": "bad_version",
                  "status_drop_unknown_opcode": "unknown_opcode", "status_drop_bad_pad": "bad_pad",
                  "status_drop_over_pmtu": "over_pmtu", "status_drop_bad_icrc": "bad_icrc",
                  "status_drop_overflow": OVERFLOW}
HEADER_FIELDS = ("eth_dest_mac", "eth_src_mac", "ip_source", "ip_dest", "ip_tos", "ip_ttl", "udp_source_port",
                 "bth_opcode", "bth_solicited", "bth_migreq", "bth_pkey", "bth_fecn", "bth_becn", "bth_dest_qp",
                 "bth_ack_req", "bth_psn", "reth_va", "reth_rkey", "reth_length", "aeth_syndrome", "aeth_msn",
                 "immdt", "atomic_swap_add", "atomic_compare", "atomic_original", "payload_bytes")
# Cycles from a frame's last beat on s_axis to its metadata on m_hdr, with idle buffers
HEADER_LATENCY = 3
# Frame offsets the ICRC reads as ones: IPv4 TOS, TTL, header checksum; UDP checksum; BTH byte 4
ICRC_MASKED_OFFSETS = (15, 22, 24, 25, 40, 41, 46)


def header_fields(packet: RocePacket) -> dict[str, int]:
    """The metadata the parser must present for a packet, absent extension headers as zero: the
    transmit bus's fields, and the FECN bit a receiver sees (a sender never sets it)."""
    return fields_of(packet) | {"bth_fecn": int(packet.bth.fecn)}


def random_payload_length(rng, opcode: int, pmtu: int) -> int:
    info = OPCODE_INFO[opcode]
    if not info.has_payload:
        return 0
    if info.position in (Position.FIRST, Position.MIDDLE):
        return pmtu
    low = 1 if info.position is Position.LAST else 0
    # the edges (every pad count at both ends) as often as the middle
    return min(pmtu, rng.choice((low, low + 1, low + 2, low + 3, pmtu - rng.randint(0, 3), rng.randint(low, pmtu))))


# Packets that may be short: everything but FIRST and MIDDLE, which carry a whole PMTU
SHORT_OPCODES = [opcode for opcode in OPCODES if OPCODE_INFO[opcode].position not in (Position.FIRST, Position.MIDDLE)]


def random_packet(rng, pmtu: int, opcode: int | None = None, length: int | None = None,
                  longest: int | None = None) -> RocePacket:
    """A legal packet at this PMTU, unless `length` forces another payload size. With `longest`,
    a random opcode is one that may carry that little, and the payload is at most that long."""
    if opcode is None:
        opcode = rng.choice(OPCODES if longest is None else SHORT_OPCODES)
    info = OPCODE_INFO[opcode]
    if length is None:
        length = random_payload_length(rng, opcode, pmtu if longest is None else max(1, min(pmtu, longest)))
        length = pmtu if info.position in (Position.FIRST, Position.MIDDLE) else length
    mac = lambda: ":".join(f"{byte:02x}" for byte in rng.randbytes(6))  # noqa: E731
    addressing = Addressing(source_mac=mac(), destination_mac=mac(),
                            source_ip=str(ipaddress.IPv4Address(rng.getrandbits(32))),
                            destination_ip=str(ipaddress.IPv4Address(rng.getrandbits(32))),
                            udp_source_port=rng.randrange(1 << 16), tos=rng.randrange(256), ttl=rng.randrange(256))
    bth = BTH(opcode=opcode, dest_qp=rng.randrange(1 << 24), psn=rng.randrange(1 << 24),
              ack_req=rng.random() < 0.5, solicited=rng.random() < 0.5, migration=rng.random() < 0.5,
              pkey=rng.randrange(1 << 16), fecn=rng.random() < 0.5, becn=rng.random() < 0.5)
    return RocePacket(
        addressing, bth,
        reth=RETH(rng.getrandbits(64), rng.getrandbits(32), rng.getrandbits(32)) if info.has_reth else None,
        aeth=AETH(rng.randrange(256), rng.randrange(1 << 24)) if info.has_aeth else None,
        immdt=ImmDt(rng.getrandbits(32)) if info.has_immdt else None,
        payload=rng.randbytes(length),
        atomic_eth=AtomicETH(rng.getrandbits(64), rng.getrandbits(32), rng.getrandbits(64), rng.getrandbits(64))
        if info.has_atomic_eth else None,
        atomic_ack_eth=AtomicAckETH(rng.getrandbits(64)) if info.has_atomic_ack_eth else None)


def mac_padded(rng, frame: bytes) -> bytes:
    """Frames under the Ethernet minimum leave the MAC padded, or not (both are legal)."""
    if len(frame) < MIN_ETHERNET_FRAME_BYTES and rng.random() < 0.5:
        return frame + bytes(MIN_ETHERNET_FRAME_BYTES - len(frame))
    return frame


def with_transport(frame: bytes, transport: bytes) -> bytes:
    """The frame re-encapsulated around another BTH-onwards byte string (ICRC excluded): IPv4
    and UDP lengths, IPv4 checksum and ICRC all consistent again."""
    udp_length = 8 + len(transport) + 4
    data = bytearray(frame[:42]) + transport + bytes(4)
    data[38:40] = udp_length.to_bytes(2, "big")
    data = with_ip_header(bytes(data), 16, (20 + udp_length).to_bytes(2, "big"))
    return reseal_icrc(data)


def transport_of(frame: bytes) -> bytes:
    ip_end = ETHERNET_HEADER_BYTES + int.from_bytes(frame[16:18], "big")
    return frame[42:ip_end - 4]


def flip_bit(frame: bytes, offset: int, bit: int) -> bytes:
    data = bytearray(frame)
    data[offset] ^= 1 << bit
    return bytes(data)


def set_byte(frame: bytes, offset: int, value: int) -> bytes:
    data = bytearray(frame)
    data[offset] = value
    return bytes(data)


def malformed_frame(rng, kind: str, pmtu: int) -> bytes:
    """A frame that is wrong in the way `kind` names. Which cause it earns is left to the model
    (a changed pad count, say, can leave a legal packet)."""
    frame = build_frame(random_packet(rng, pmtu))
    if kind == "truncated":
        return frame[:rng.randint(1, len(frame) - 1)]
    if kind == "ethertype":
        return frame[:12] + rng.choice((b"\x86\xdd", b"\x89\x15", b"\x81\x00", rng.randbytes(2))) + frame[14:]
    if kind == "ip_version":
        return reseal_icrc(with_ip_header(frame, 14, bytes([rng.choice((0x46, 0x4F, 0x65, 0x05, 0x44))])))
    if kind == "ip_checksum":
        return flip_bit(frame, rng.choice((24, 25)), rng.randrange(8))
    if kind == "fragment":
        flags = rng.choice((0x2000, 0x0001, 0x4000 | rng.randrange(1, 0x2000), 0x6000))
        return reseal_icrc(with_ip_header(frame, 20, flags.to_bytes(2, "big")))
    if kind == "protocol":
        return reseal_icrc(with_ip_header(frame, 23, bytes([rng.choice((6, 1, 16, 18, 0x11 ^ 0x80))])))
    if kind == "udp_port":
        port = rng.choice((4790, 4792, 0x12B6 ^ 0x8000, rng.randrange(1 << 16)))
        return frame[:36] + port.to_bytes(2, "big") + frame[38:]
    if kind == "ip_length":
        total = (int.from_bytes(frame[16:18], "big") + rng.choice((-4, -1, 1, 2, 4, 100))) % (1 << 16)
        return with_ip_header(frame, 16, total.to_bytes(2, "big"))
    if kind == "udp_length":
        length = (int.from_bytes(frame[38:40], "big") + rng.choice((-4, -1, 1, 4))) % (1 << 16)
        return frame[:38] + length.to_bytes(2, "big") + frame[40:]
    if kind == "both_lengths":
        delta = rng.choice((-8, -4, 4, 8))
        total = int.from_bytes(frame[16:18], "big") + delta
        data = with_ip_header(frame, 16, total.to_bytes(2, "big"))
        return data[:38] + (total - 20).to_bytes(2, "big") + data[40:]
    if kind == "trailing_bytes":
        return frame + rng.randbytes(rng.randint(1, 9))
    if kind == "version":
        return reseal_icrc(set_byte(frame, 43, (frame[43] & 0xF0) | rng.randrange(1, 16)))
    if kind == "opcode":
        unknown = rng.choice([opcode for opcode in range(256) if opcode not in OPCODE_INFO])
        return reseal_icrc(set_byte(frame, 42, unknown))
    if kind == "pad":
        return reseal_icrc(set_byte(frame, 43, (frame[43] & 0xCF) | (rng.randrange(1, 4) << 4) ^ (frame[43] & 0x30)))
    if kind == "pad_misaligned":
        return with_transport(frame, transport_of(frame) + rng.randbytes(rng.randint(1, 3)))
    if kind == "over_pmtu":
        opcode = rng.choice([opcode for opcode in SHORT_OPCODES if OPCODE_INFO[opcode].has_payload])
        return build_frame(random_packet(rng, pmtu, opcode, pmtu + rng.choice((1, 2, 3, 4, 8, 100))))
    if kind == "first_middle_not_pmtu":
        opcode = rng.choice([opcode for opcode in OPCODES if opcode not in SHORT_OPCODES])
        return build_frame(random_packet(rng, pmtu, opcode, pmtu + rng.choice((-4, -1, 1, 4, 4 - pmtu))))
    if kind == "empty_last":
        opcode = rng.choice([opcode for opcode in OPCODES if OPCODE_INFO[opcode].position is Position.LAST])
        return build_frame(random_packet(rng, pmtu, opcode, 0))
    if kind == "payload_on_request":
        # READ_REQUEST and ACKNOWLEDGE carry no payload
        frame = build_frame(random_packet(rng, pmtu, rng.choice((0x0C, 0x11)), 0))
        return with_transport(frame, transport_of(frame) + rng.randbytes(4 * rng.randint(1, 4)))
    if kind == "extension_cut":
        # a RETH opcode on a packet too short to hold its RETH
        frame = build_frame(random_packet(rng, pmtu, 0x04, rng.choice((0, 4, 8))))
        return reseal_icrc(set_byte(frame, 42, rng.choice((0x06, 0x0A, 0x0B, 0x0C))))
    if kind == "icrc_bit":
        offset = rng.choice([offset for offset in range(ETHERNET_HEADER_BYTES, len(frame))
                             if offset not in ICRC_MASKED_OFFSETS])
        return flip_bit(frame, offset, rng.randrange(8))
    raise ValueError(kind)


MALFORMED_KINDS = ("truncated", "ethertype", "ip_version", "ip_checksum", "fragment", "protocol", "udp_port",
                   "ip_length", "udp_length", "both_lengths", "trailing_bytes", "version", "opcode", "pad",
                   "pad_misaligned", "over_pmtu", "first_middle_not_pmtu", "empty_last", "payload_on_request",
                   "extension_cut", "icrc_bit")


def masked_field_change(rng, frame: bytes) -> bytes:
    """A change a router may make, in a field the ICRC masks: the frame stays good."""
    kind = rng.choice(("ttl", "tos", "udp_checksum", "bth_byte_4"))
    if kind == "ttl":
        return with_ip_header(frame, 22, bytes([frame[22] ^ (1 << rng.randrange(8))]))
    if kind == "tos":
        return with_ip_header(frame, 15, bytes([frame[15] ^ (1 << rng.randrange(8))]))
    if kind == "udp_checksum":
        return frame[:40] + rng.randrange(1, 1 << 16).to_bytes(2, "big") + frame[42:]
    return set_byte(frame, 46, frame[46] ^ (1 << rng.randrange(8)))  # FECN, BECN or reserved


@dataclass
class Sent:
    frame: bytes
    mac_error: bool
    expected: str
    packet: RocePacket | None


class TB:
    def __init__(self, dut, rng, idle=None, backpressure=None):
        self.dut = dut
        self.rng = rng
        self.bytes_per_beat = len(dut.s_axis_tdata) // 8
        self.payload_depth = int(dut.PAYLOAD_FIFO_DEPTH.value)
        self.header_depth = int(dut.HEADER_FIFO_DEPTH.value)
        self.idle = idle
        self.backpressure = backpressure
        # None: random backpressure; False: held low; True: held high
        self.payload_ready_forced: bool | None = None
        self.header_ready_forced: bool | None = None
        self.pmtu = 4096
        # Frames waiting to be driven, each a deque of beats, and the frame being driven
        self.queue: deque = deque()
        self._beats: deque = deque()
        # Flow control: start a good frame only while the parser is sure to have room for it
        # (the payload and header FIFOs drain at the TB's random pace; overflow has a test of
        # its own). Within a frame the beats always come back to back.
        self.flow_control = True
        self._payload_beats_in_flight = 0
        self._headers_in_flight = 0
        self.sent: list[Sent] = []
        self.outcomes: list[str] = []
        self.outcome_cycles: list[int] = []
        self.headers: list[dict[str, int]] = []
        self.header_cycles: list[int] = []
        self.payloads: list[bytes] = []
        self.last_beat_cycles: list[int] = []
        self.cycle = 0
        self.errors: list[str] = []
        self._partial = bytearray()
        self._running = False
        self._status = [(getattr(dut, name), outcome) for name, outcome in STATUS_OUTPUTS.items()]
        self._fields = [(name, getattr(dut, f"m_hdr_{name}")) for name in HEADER_FIELDS]

    async def reset(self):
        self.dut.s_axis_tvalid.value = 0
        self.dut.s_axis_tdata.value = 0
        self.dut.s_axis_tkeep.value = 0
        self.dut.s_axis_tlast.value = 0
        self.dut.s_axis_tuser.value = 0
        self.dut.m_hdr_ready.value = 0
        self.dut.m_axis_payload_tready.value = 0
        self.set_pmtu(4096)
        await start_clock_and_reset(self.dut.clk, self.dut.rst)
        if not self._running:
            self._running = True
            cocotb.start_soon(self._run())

    def set_pmtu(self, pmtu: int) -> None:
        """Only between frames: the parser reads it while a frame is in flight."""
        self.pmtu = pmtu
        self.dut.pmtu_bytes.value = pmtu

    def expect(self, frame: bytes, mac_error: bool = False) -> Sent:
        if mac_error:
            return Sent(frame, True, MAC_ERROR, None)
        try:
            packet = parse_frame(frame, self.pmtu)
        except MalformedFrame as error:
            # The parser knows only the largest PMTU of any QP: a packet good for a QP of a
            # smaller one passes, and that QP's side checks the rest
            packet = next((good for good in (parse_frame_or_none(frame, pmtu) for pmtu in PMTUS if pmtu < self.pmtu)
                           if good), None)
            if packet is None:
                return Sent(frame, False, error.cause.value, None)
        return Sent(frame, False, GOOD, packet)

    def send(self, frame: bytes, mac_error: bool = False) -> Sent:
        sent = self.expect(frame, mac_error)
        self.sent.append(sent)
        width = self.bytes_per_beat
        beats = deque()
        for start in range(0, len(frame), width):
            chunk = frame[start:start + width]
            last = start + width >= len(frame)
            beats.append((int.from_bytes(chunk, "little"), (1 << len(chunk)) - 1, int(last), int(last and mac_error)))
        payload_beats = -(-len(sent.packet.payload) // width) if sent.packet else 0
        self.queue.append((beats, payload_beats, int(sent.expected == GOOD)))
        return sent

    @property
    def sending(self) -> bool:
        return bool(self.queue or self._beats)

    def stop_sending(self) -> None:
        self.queue.clear()
        self._beats.clear()
        self._payload_beats_in_flight = self._headers_in_flight = 0

    def _next_beat(self):
        if not self._beats and self.queue:
            beats, payload_beats, headers = self.queue[0]
            if self.flow_control and (self._payload_beats_in_flight + payload_beats > self.payload_depth
                                      or self._headers_in_flight + headers > self.header_depth):
                return None
            self.queue.popleft()
            self._beats = beats
            self._payload_beats_in_flight += payload_beats
            self._headers_in_flight += headers
        return self._beats.popleft() if self._beats else None

    def clear_records(self) -> None:
        self.sent.clear()
        self.outcomes.clear()
        self.outcome_cycles.clear()
        self.headers.clear()
        self.header_cycles.clear()
        self.payloads.clear()
        self.last_beat_cycles.clear()
        self._partial.clear()

    async def _run(self):
        """Every cycle: record the handshakes of the edge just passed, then drive the next cycle."""
        dut = self.dut
        width = self.bytes_per_beat
        payload_ready = header_ready = False
        driving = False
        while True:
            await RisingEdge(dut.clk)
            self.cycle += 1
            if dut.rst.value == 1:
                driving = False
                continue
            if driving and dut.s_axis_tlast.value == 1:
                self.last_beat_cycles.append(self.cycle)
            for handle, outcome in self._status:
                if handle.value == 1:
                    self.outcomes.append(outcome)
                    self.outcome_cycles.append(self.cycle)
            if header_ready and dut.m_hdr_valid.value == 1:
                self.headers.append({name: int(handle.value) for name, handle in self._fields})
                self.header_cycles.append(self.cycle)
                self._headers_in_flight -= 1
            if payload_ready and dut.m_axis_payload_tvalid.value == 1:
                keep = int(dut.m_axis_payload_tkeep.value)
                data = int(dut.m_axis_payload_tdata.value).to_bytes(width, "little")
                last = dut.m_axis_payload_tlast.value == 1
                self._payload_beats_in_flight -= 1
                if not last and keep != (1 << width) - 1:
                    self.errors.append(f"payload beat {len(self._partial) // width} is not full: tkeep {keep:#x}")
                self._partial += bytes(byte for lane, byte in enumerate(data) if keep >> lane & 1)
                if last:
                    self.payloads.append(bytes(self._partial))
                    self._partial.clear()

            beat = None
            if self.sending and not (self.idle is not None and self.rng.random() < self.idle):
                beat = self._next_beat()
            driving = beat is not None
            if driving:
                data, keep, last, user = beat
                dut.s_axis_tdata.value = data
                dut.s_axis_tkeep.value = keep
                dut.s_axis_tlast.value = last
                dut.s_axis_tuser.value = user
            dut.s_axis_tvalid.value = int(driving)
            payload_ready = self._ready(self.payload_ready_forced)
            header_ready = self._ready(self.header_ready_forced)
            dut.m_axis_payload_tready.value = int(payload_ready)
            dut.m_hdr_ready.value = int(header_ready)

    def _ready(self, forced: bool | None) -> bool:
        if forced is not None:
            return forced
        return self.backpressure is None or self.rng.random() >= self.backpressure

    async def drained(self, limit: int = 200000):
        """Until every frame sent has its verdict and every delivered frame has left the parser."""
        start = self.cycle
        while self.sending or len(self.outcomes) < len(self.sent) or (
                len(self.headers) < self.outcomes.count(GOOD)
                or len(self.payloads) < sum(1 for sent, outcome in zip(self.sent, self.outcomes)
                                            if outcome == GOOD and sent.packet and sent.packet.payload)):
            await ClockCycles(self.dut.clk, 16)
            if self.cycle - start > limit or len(self.outcomes) > len(self.sent):
                break
        # then a while longer, for anything that should not come out at all
        await ClockCycles(self.dut.clk, 64)

    def check(self, overflow_allowed: bool = False) -> list[Sent]:
        """Outcomes, metadata and payload against the model; returns the frames delivered."""
        assert not self.errors, self.errors[:5]
        assert len(set(self.outcome_cycles)) == len(self.outcome_cycles), "two status pulses in one cycle"
        assert len(self.outcomes) == len(self.sent), f"{len(self.outcomes)} status pulses for {len(self.sent)} frames"
        for index, (sent, outcome) in enumerate(zip(self.sent, self.outcomes)):
            if outcome == sent.expected or (overflow_allowed and sent.expected == GOOD and outcome == OVERFLOW):
                continue
            raise AssertionError(f"frame {index} ({len(sent.frame)} bytes{', tuser' if sent.mac_error else ''}): "
                                 f"parser says {outcome}, model says {sent.expected}: {sent.frame.hex()}")
        delivered = [sent for sent, outcome in zip(self.sent, self.outcomes) if outcome == GOOD]
        assert len(self.headers) == len(delivered), f"{len(self.headers)} headers for {len(delivered)} good frames"
        for index, (sent, header) in enumerate(zip(delivered, self.headers)):
            expected = header_fields(sent.packet)
            wrong = {name: (hex(header[name]), hex(value)) for name, value in expected.items() if header[name] != value}
            assert not wrong, f"good frame {index}: fields (got, expected) {wrong}; frame {sent.frame.hex()}"
        expected_payloads = [sent.packet.payload for sent in delivered if sent.packet.payload]
        assert len(self.payloads) == len(expected_payloads), (
            f"{len(self.payloads)} payload frames for {len(expected_payloads)} good frames with payload")
        for index, (got, expected) in enumerate(zip(self.payloads, expected_payloads)):
            assert got == expected, f"payload {index}: {len(got)} bytes, expected {len(expected)}"
        assert not self._partial, "a payload frame without tlast"
        return delivered


async def new_tb(dut, label, idle=None, backpressure=None) -> TB:
    tb = TB(dut, test_rng(label, idle, backpressure), idle, backpressure)
    await tb.reset()
    return tb


async def send_with_pmtu(tb: TB, pmtu: int) -> None:
    """Change the PMTU once the frames before have their verdicts."""
    await tb.drained()
    tb.set_pmtu(pmtu)


@cocotb.test(timeout_time=500, timeout_unit="us")
@cocotb.parametrize(idle=PAUSE_OPTIONS, backpressure=PAUSE_OPTIONS)
async def good_frames_of_every_opcode(dut, idle, backpressure):
    tb = await new_tb(dut, "good_frames", idle, backpressure)
    rng = tb.rng
    for pmtu in PMTUS:
        await send_with_pmtu(tb, pmtu)
        frames = [random_packet(rng, pmtu, opcode) for opcode in OPCODES]
        # FIRST and MIDDLE packets of QPs with a smaller PMTU than the largest
        frames += [random_packet(rng, smaller, opcode) for smaller in PMTUS if smaller < pmtu
                   for opcode in OPCODES if OPCODE_INFO[opcode].position in (Position.FIRST, Position.MIDDLE)]
        frames += [random_packet(rng, pmtu, 0x04, 0) for _ in range(3)]  # 58 bytes: MAC padding or not
        # keep most of the traffic small so that the whole bench stays quick; the PMTU-sized
        # FIRST and MIDDLE packets above are the long ones
        frames += [random_packet(rng, pmtu, longest=64) if rng.random() < 0.7 else
                   random_packet(rng, pmtu) for _ in range(10)]
        rng.shuffle(frames)
        for packet in frames:
            assert tb.send(mac_padded(rng, build_frame(packet))).expected == GOOD
    await tb.drained()
    delivered = tb.check()
    assert len(delivered) == len(tb.sent)


@cocotb.test(timeout_time=1, timeout_unit="ms")
@cocotb.parametrize(idle=PAUSE_OPTIONS)
async def malformed_frames_are_dropped_with_their_cause(dut, idle):
    tb = await new_tb(dut, "malformed", idle, 0.3)
    rng = tb.rng
    for pmtu in (256, 1024, 4096):
        await send_with_pmtu(tb, pmtu)
        kinds = [kind for kind in MALFORMED_KINDS for _ in range(3)]
        rng.shuffle(kinds)
        for kind in kinds:
            if rng.random() < 0.5:
                tb.send(mac_padded(rng, build_frame(random_packet(rng, pmtu, longest=40))))
            tb.send(malformed_frame(rng, kind, pmtu))
        for _ in range(6):
            packet = random_packet(rng, pmtu, longest=40)
            tb.send(build_frame(packet), mac_error=True)
            tb.send(malformed_frame(rng, rng.choice(MALFORMED_KINDS), pmtu), mac_error=True)
    await tb.drained()
    tb.check()
    expected = {sent.expected for sent in tb.sent}
    missing = set(STATUS_OUTPUTS.values()) - {OVERFLOW} - expected
    assert not missing, f"no frame tested {missing}"


@cocotb.test(timeout_time=20, timeout_unit="us")
async def masked_fields_do_not_fail_the_icrc(dut):
    tb = await new_tb(dut, "masked_fields", None, 0.3)
    rng = tb.rng
    for _ in range(60):
        frame = masked_field_change(rng, build_frame(random_packet(rng, tb.pmtu, longest=100)))
        assert tb.send(frame).expected == GOOD
    await tb.drained()
    tb.check()


def fits_when_stalled(tb: TB) -> list[str]:
    """Outcomes with the payload output held: a frame's payload beats are kept while the sum of
    all kept frames' beats stays within PAYLOAD_FIFO_DEPTH."""
    used, outcomes = 0, []
    for sent in tb.sent:
        beats = -(-len(sent.packet.payload) // tb.bytes_per_beat) if sent.packet else 0
        if sent.expected == GOOD and used + beats > tb.payload_depth:
            outcomes.append(OVERFLOW)
        else:
            outcomes.append(sent.expected)
            used += beats if sent.expected == GOOD else 0
    return outcomes


@cocotb.test(timeout_time=200, timeout_unit="us")
async def stalled_output_drops_whole_frames_as_overflow(dut):
    tb = await new_tb(dut, "overflow", None, 0.3)
    rng = tb.rng
    tb.set_pmtu(1024)
    tb.payload_ready_forced = False
    tb.flow_control = False
    payload_bytes = 0
    while payload_bytes < 3 * tb.payload_depth * tb.bytes_per_beat:
        packet = random_packet(rng, tb.pmtu)
        payload_bytes += len(packet.payload)
        tb.send(mac_padded(rng, build_frame(packet)))
        if rng.random() < 0.2:
            tb.send(malformed_frame(rng, rng.choice(MALFORMED_KINDS), tb.pmtu))
    while tb.sending or len(tb.outcomes) < len(tb.sent):
        await ClockCycles(dut.clk, 16)
    assert tb.outcomes == fits_when_stalled(tb), "frames kept and dropped differ from what fits the FIFO"
    assert OVERFLOW in tb.outcomes
    tb.payload_ready_forced = None
    await tb.drained()
    # every reserved beat must have come back: a FIFO's worth of PMTU packets fits again
    refill = tb.payload_depth * tb.bytes_per_beat // tb.pmtu
    for _ in range(refill):
        tb.send(build_frame(random_packet(rng, tb.pmtu, 0x06)))  # WRITE_FIRST: one full PMTU
    tb.payload_ready_forced = False
    while tb.sending or len(tb.outcomes) < len(tb.sent):
        await ClockCycles(dut.clk, 16)
    assert tb.outcomes[-refill:] == [GOOD] * refill, "space leaked: a FIFO's worth no longer fits"
    tb.payload_ready_forced = None
    await tb.drained()
    tb.check(overflow_allowed=True)

    # the header FIFO fills too: zero-payload frames while m_hdr_ready is held low
    tb.clear_records()
    tb.header_ready_forced = False
    for _ in range(tb.header_depth + 8):
        tb.send(build_frame(random_packet(rng, tb.pmtu, rng.choice((0x04, 0x0C, 0x11)), 0)))
    while tb.sending or len(tb.outcomes) < len(tb.sent):
        await ClockCycles(dut.clk, 16)
    assert tb.outcomes.count(OVERFLOW) >= 1, "a full header FIFO must drop frames"
    assert tb.outcomes.count(GOOD) >= tb.header_depth
    tb.header_ready_forced = None
    await tb.drained()
    tb.check(overflow_allowed=True)


@cocotb.test(timeout_time=50, timeout_unit="us")
@cocotb.parametrize(backpressure=PAUSE_OPTIONS)
async def reset_in_mid_traffic_then_clean_traffic(dut, backpressure):
    tb = await new_tb(dut, "reset", None, backpressure)
    rng = tb.rng
    for _ in range(3):
        for _ in range(12):
            tb.send(build_frame(random_packet(rng, tb.pmtu, longest=300)))
        await ClockCycles(dut.clk, rng.randint(20, 150))
        tb.stop_sending()
        tb.dut.s_axis_tvalid.value = 0
        await pulse_reset(dut.clk, dut.rst)
        assert dut.m_hdr_valid.value == 0 and dut.m_axis_payload_tvalid.value == 0, "output survived reset"
        tb.clear_records()
        for _ in range(12):
            tb.send(build_frame(random_packet(rng, tb.pmtu, longest=300)))
        await tb.drained()
        tb.check()
        assert tb.outcomes == [GOOD] * 12


@cocotb.test(timeout_time=50, timeout_unit="us")
async def a_one_cycle_reset_ends_a_status_pulse(dut):
    """A reset one cycle long, at the edge that would end a frame's status pulse, ends it: nothing
    is counted for that frame once the reset is over (a pulse kept through the reset would count a
    frame from before it). A frame of every drop cause and a good one, each cut so; then good
    frames come through as before."""
    tb = await new_tb(dut, "one-cycle reset")
    rng = tb.rng
    handles = [handle for handle, _ in tb._status]
    for kind in MALFORMED_KINDS + ("good",):
        frame = build_frame(random_packet(rng, tb.pmtu, longest=40)) if kind == "good" else \
            malformed_frame(rng, kind, tb.pmtu)
        tb.send(frame)
        # Its pulse comes a few cycles after its last beat
        limit = len(frame) // tb.bytes_per_beat + 20
        for _ in range(limit):
            await FallingEdge(dut.clk)
            if any(handle.value == 1 for handle in handles):
                break
        else:
            raise AssertionError(f"{kind}: no status pulse within {limit} cycles")
        dut.rst.value = 1
        await FallingEdge(dut.clk)
        dut.rst.value = 0
        tb.clear_records()
        await ClockCycles(dut.clk, 20)
        assert tb.outcomes == [], f"{kind}: a status pulse from before a one-cycle reset came out after it: {tb.outcomes}"
    for _ in range(6):
        tb.send(build_frame(random_packet(rng, tb.pmtu, longest=300)))
    await tb.drained()
    tb.check()
    assert tb.outcomes == [GOOD] * 6


@cocotb.test(timeout_time=20, timeout_unit="us")
async def header_latency_and_line_rate(dut):
    tb = await new_tb(dut, "latency")
    rng = tb.rng
    tb.send(build_frame(random_packet(rng, tb.pmtu, 0x0A, 100)))
    await tb.drained()
    tb.check()
    latency = tb.header_cycles[0] - tb.last_beat_cycles[0]
    assert latency == HEADER_LATENCY, f"metadata {latency} cycles after the last beat, documented {HEADER_LATENCY}"
    # shortest frames back to back: every one parsed, one verdict per frame, never a stall
    tb.clear_records()
    for _ in range(50):
        tb.send(mac_padded(rng, build_frame(random_packet(rng, tb.pmtu, rng.choice((0x04, 0x11, 0x10)), 0))))
    await tb.drained()
    tb.check()
    assert tb.outcomes == [GOOD] * 50
    frame_beats = [-(-len(sent.frame) // tb.bytes_per_beat) for sent in tb.sent]
    gaps = [later - earlier for earlier, later in zip(tb.last_beat_cycles, tb.last_beat_cycles[1:])]
    assert gaps == frame_beats[1:], "the frames were not driven back to back"
