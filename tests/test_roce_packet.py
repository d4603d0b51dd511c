# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The RoCEv2 packet model against independent answers: scapy's encoder, decoder and ICRC, rxe's
ICRC seed and PSN comparison, and hand-counted segmentations."""

import random
import zlib

import numpy as np
import pytest
from scapy.contrib.roce import (AETH as ScapyAETH, BTH as ScapyBTH, CNPPadding as ScapyCNPPadding,
                                _bth_opcodes as SCAPY_OPCODE_NAMES)
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether
from scapy.packet import Raw
from scapy.utils import RawPcapReader

from dpuv.models.roce_packet import (
    AETH, BTH, BTH_OFFSET, ETHERNET_HEADER_BYTES, ICRC_BYTES, PMTUS, PSN_MODULUS, RETH, AckType, Addressing,
    AtomicAckETH, AtomicETH, Endpoint, ImmDt, MalformedCause, MalformedFrame, Opcode, Operation, Position, RocePacket, build_frame, icrc, opcode_info,
    ipv4_checksum, parse_frame, psn_add, psn_compare, reseal_icrc, rnr_nak_syndrome, segment_message,
)
from dpuv.tb.roce_scapy import (RETH as ScapyRETH, AtomicAckETH as ScapyAtomicAckETH, AtomicETH as ScapyAtomicETH,
                                ImmDt as ScapyImmDt, decode, write_pcap)

ADDRESSING = Addressing.between(Endpoint("02:00:00:00:00:01", "10.0.0.1", 0xC123),
                                Endpoint("02:00:00:00:00:02", "10.0.0.2"))

# Ether/IP(DF, id 0)/UDP(4791, checksum 0)/BTH(SEND_ONLY, QP 0x12, PSN 5, pad 1)/"abc\0" as scapy
# 2.8.0 builds it, ICRC included; recorded once so the check does not depend on scapy's presence
SCAPY_SEND_ONLY = bytes.fromhex(
    "020000000002020000000001080045000030000040004011" "26bb0a0000010a000002c00012b7001c00000410ffff0000"
    "00120000000561626300f6034be0")


def _packet(opcode: Opcode, payload: bytes = b"", **bth_fields) -> RocePacket:
    info = opcode_info(opcode)
    return RocePacket(
        ADDRESSING, BTH(opcode, 0x12, 5, **bth_fields),
        reth=RETH(0x0123_4567_89AB_CDEF, 0xCAFE, len(payload)) if info.has_reth else None,
        aeth=AETH(0x1F, 0x00ABCD) if info.has_aeth else None,
        immdt=ImmDt(0xDEADBEEF) if info.has_immdt else None,
        payload=payload,
        atomic_eth=AtomicETH(0x0123_4567_89AB_CDE8, 0xCAFE, 5, 7) if info.has_atomic_eth else None,
        atomic_ack_eth=AtomicAckETH(0x1122_3344_5566_7788) if info.has_atomic_ack_eth else None)


def _reframe(frame: bytes, transport: bytes) -> bytes:
    """The frame with BTH-onwards replaced, lengths, IP checksum and ICRC made consistent."""
    header = bytearray(frame[:BTH_OFFSET])
    ip_total = 20 + 8 + len(transport) + ICRC_BYTES
    header[16:18] = ip_total.to_bytes(2, "big")
    header[24:26] = b"\0\0"
    header[24:26] = ipv4_checksum(bytes(header[14:34])).to_bytes(2, "big")
    header[38:40] = (ip_total - 20).to_bytes(2, "big")
    return reseal_icrc(bytes(header) + transport + bytes(ICRC_BYTES))


def _fix_ip_checksum(frame: bytearray) -> bytes:
    frame[24:26] = b"\0\0"
    frame[24:26] = ipv4_checksum(bytes(frame[14:34])).to_bytes(2, "big")
    return bytes(frame)


# ---- ICRC -----------------------------------------------------------------------------------

def test_icrc_seed_is_rxe_seed():
    # rxe seeds its CRC register with 0xDEBB20E3 instead of feeding 8 bytes of 0xFF: the same state
    assert zlib.crc32(b"\xff" * 8) ^ 0xFFFFFFFF == 0xDEBB20E3


def test_icrc_known_answer_from_scapy():
    frame = SCAPY_SEND_ONLY
    assert icrc(frame[ETHERNET_HEADER_BYTES:-ICRC_BYTES]) == 0xE04B03F6
    assert frame[-ICRC_BYTES:] == bytes([0xF6, 0x03, 0x4B, 0xE0]), "least significant byte first"
    assert build_frame(RocePacket(Addressing.between(Endpoint("02:00:00:00:00:01", "10.0.0.1", 0xC000),
                                                     Endpoint("02:00:00:00:00:02", "10.0.0.2")),
                                  BTH(Opcode.SEND_ONLY, 0x12, 5), payload=b"abc")) == frame


@pytest.mark.parametrize("seed", range(4))
def test_icrc_matches_scapy_with_masked_fields_set(seed):
    rng = random.Random(seed)
    # Masked fields at arbitrary values: scapy replaces them with ones, as the ICRC requires
    scapy_frame = bytes(
        Ether(dst="02:00:00:00:00:02", src="02:00:00:00:00:01")
        / IP(src="192.168.1.7", dst="192.168.9.3", tos=rng.randrange(256), ttl=rng.randrange(1, 256), flags="DF")
        / UDP(sport=rng.randrange(65536), dport=4791, chksum=rng.randrange(1, 65536))
        / ScapyBTH(opcode=Opcode.RDMA_WRITE_MIDDLE, dqpn=rng.randrange(1 << 24), psn=rng.randrange(1 << 24),
                   fecn=1, becn=rng.randrange(2), resv6=rng.randrange(64), ackreq=1)
        / Raw(rng.randbytes(256)))
    assert icrc(scapy_frame[ETHERNET_HEADER_BYTES:-ICRC_BYTES]) == int.from_bytes(scapy_frame[-ICRC_BYTES:], "little")
    assert parse_frame(scapy_frame, pmtu=256).bth.fecn


def test_icrc_ignores_masked_fields_and_sees_the_rest():
    frame = bytearray(build_frame(_packet(Opcode.SEND_ONLY, b"hello")))
    for offset in (15, 22, 24, 25, 40, 41, BTH_OFFSET + 4):  # TOS, TTL, IP checksum, UDP checksum, BTH byte 4
        changed = bytearray(frame)
        changed[offset] ^= 0xA5
        assert icrc(bytes(changed[14:-4])) == icrc(bytes(frame[14:-4])), offset
    for offset in (26, 34, BTH_OFFSET, BTH_OFFSET + 5, len(frame) - 5):  # source IP, UDP port, opcode, QP, payload
        changed = bytearray(frame)
        changed[offset] ^= 0x01
        assert icrc(bytes(changed[14:-4])) != icrc(bytes(frame[14:-4])), offset


# ---- opcode table ---------------------------------------------------------------------------

def test_opcode_values_match_scapy_names():
    for opcode in Opcode:
        # The CNP is not an RC opcode, and scapy names it without a transport
        assert SCAPY_OPCODE_NAMES[opcode.value] == ("CNP" if opcode is Opcode.CNP else f"RC_{opcode.name}")


def test_extension_headers_per_opcode_follow_the_reference():
    with_reth = {opcode for opcode in Opcode if opcode_info(opcode).has_reth}
    with_aeth = {opcode for opcode in Opcode if opcode_info(opcode).has_aeth}
    with_immdt = {opcode for opcode in Opcode if opcode_info(opcode).has_immdt}
    assert with_reth == {Opcode.RDMA_WRITE_FIRST, Opcode.RDMA_WRITE_ONLY, Opcode.RDMA_WRITE_ONLY_WITH_IMMEDIATE,
                         Opcode.RDMA_READ_REQUEST}
    assert with_aeth == {Opcode.ACKNOWLEDGE, Opcode.RDMA_READ_RESPONSE_FIRST, Opcode.RDMA_READ_RESPONSE_LAST,
                         Opcode.RDMA_READ_RESPONSE_ONLY, Opcode.ATOMIC_ACKNOWLEDGE}
    assert {opcode for opcode in Opcode if opcode_info(opcode).has_atomic_eth} == {Opcode.COMPARE_SWAP,
                                                                                  Opcode.FETCH_ADD}
    assert {opcode for opcode in Opcode if opcode_info(opcode).has_atomic_ack_eth} == {Opcode.ATOMIC_ACKNOWLEDGE}
    assert {opcode for opcode in Opcode if opcode_info(opcode).has_cnp_padding} == {Opcode.CNP}
    assert {opcode for opcode in Opcode if not opcode_info(opcode).has_payload} == {
        Opcode.RDMA_READ_REQUEST, Opcode.ACKNOWLEDGE, Opcode.ATOMIC_ACKNOWLEDGE, Opcode.COMPARE_SWAP,
        Opcode.FETCH_ADD, Opcode.CNP}
    assert with_immdt == {Opcode.SEND_LAST_WITH_IMMEDIATE, Opcode.SEND_ONLY_WITH_IMMEDIATE,
                          Opcode.RDMA_WRITE_LAST_WITH_IMMEDIATE, Opcode.RDMA_WRITE_ONLY_WITH_IMMEDIATE}
    assert opcode_info(Opcode.RDMA_WRITE_MIDDLE).position is Position.MIDDLE
    assert opcode_info(Opcode.RDMA_READ_RESPONSE_ONLY).operation is Operation.RDMA_READ_RESPONSE


def test_aeth_syndrome_fields():
    assert rnr_nak_syndrome(1) == 0x21
    assert AETH(0x62, 0).ack_type is AckType.NAK and AETH(0x62, 0).value == 2
    assert AETH(0x1F, 0).ack_type is AckType.ACK and AETH(0x3F, 0).ack_type is AckType.RNR_NAK


# ---- model and scapy agree field by field ---------------------------------------------------

@pytest.mark.parametrize("opcode", list(Opcode), ids=lambda opcode: opcode.name)
def test_model_frames_decode_the_same_in_scapy(opcode):
    rng = random.Random(opcode.value)
    info = opcode_info(opcode)
    # FIRST and MIDDLE carry whole PMTUs, so never a pad
    lengths = [0, 1, 2, 3, 4, 255] if info.ends_message else [0, 4, 256]
    for payload_length in (lengths if info.has_payload else [0]):
        bth = BTH(opcode, rng.randrange(1 << 24), rng.randrange(1 << 24), ack_req=bool(rng.randrange(2)),
                  solicited=bool(rng.randrange(2)), migration=bool(rng.randrange(2)), pkey=rng.randrange(1 << 16),
                  fecn=bool(rng.randrange(2)), becn=bool(rng.randrange(2)))
        addressing = Addressing("02:aa:bb:cc:dd:01", "02:aa:bb:cc:dd:02", "172.16.0.1", "172.16.5.9",
                                rng.randrange(65536), tos=rng.randrange(256), ttl=rng.randrange(1, 256))
        packet = RocePacket(
            addressing, bth,
            reth=RETH(rng.randrange(1 << 64), rng.randrange(1 << 32), rng.randrange(1 << 32))
            if info.has_reth else None,
            aeth=AETH(rng.randrange(256), rng.randrange(1 << 24)) if info.has_aeth else None,
            immdt=ImmDt(rng.randrange(1 << 32)) if info.has_immdt else None,
            payload=rng.randbytes(payload_length),
            atomic_eth=AtomicETH(rng.randrange(1 << 64), rng.randrange(1 << 32), rng.randrange(1 << 64),
                                 rng.randrange(1 << 64)) if info.has_atomic_eth else None,
            atomic_ack_eth=AtomicAckETH(rng.randrange(1 << 64)) if info.has_atomic_ack_eth else None)
        frame = build_frame(packet)
        seen = decode(frame)
        assert seen["opcode"] == opcode and seen["opcode_name"] == SCAPY_OPCODE_NAMES[opcode]
        assert (seen["dest_qp"], seen["psn"], seen["pkey"]) == (bth.dest_qp, bth.psn, bth.pkey)
        assert (seen["ack_req"], seen["solicited"], seen["migration"]) == (bth.ack_req, bth.solicited, bth.migration)
        assert (seen["fecn"], seen["becn"], seen["version"]) == (bth.fecn, bth.becn, 0)
        assert seen["pad"] == -payload_length % 4
        assert seen["payload"] == packet.payload
        assert seen["reth"] == (None if packet.reth is None else {
            "virtual_address": packet.reth.virtual_address, "rkey": packet.reth.rkey,
            "dma_length": packet.reth.dma_length})
        assert seen["aeth"] == (None if packet.aeth is None else {"syndrome": packet.aeth.syndrome,
                                                                  "msn": packet.aeth.msn})
        assert seen["imm"] == (None if packet.immdt is None else packet.immdt.value)
        assert seen["atomic_eth"] == (None if packet.atomic_eth is None else {
            "virtual_address": packet.atomic_eth.virtual_address, "rkey": packet.atomic_eth.rkey,
            "swap_add": packet.atomic_eth.swap_add, "compare": packet.atomic_eth.compare})
        assert seen["atomic_original"] == (None if packet.atomic_ack_eth is None else packet.atomic_ack_eth.original)
        assert seen["cnp_padding"] == (bytes(16) if info.has_cnp_padding else None)
        assert seen["icrc_sent"] == seen["icrc_computed"]
        assert (seen["source_mac"], seen["destination_mac"]) == (addressing.source_mac, addressing.destination_mac)
        assert (seen["source_ip"], seen["destination_ip"]) == (addressing.source_ip, addressing.destination_ip)
        assert (seen["tos"], seen["ttl"], seen["dont_fragment"]) == (addressing.tos, addressing.ttl, True)
        assert (seen["udp_source_port"], seen["udp_destination_port"], seen["udp_checksum"]) == \
            (addressing.udp_source_port, 4791, 0)
        assert parse_frame(frame) == packet


@pytest.mark.parametrize("opcode", list(Opcode), ids=lambda opcode: opcode.name)
def test_scapy_frames_parse_the_same_in_the_model(opcode):
    info = opcode_info(opcode)
    payload = (b"xyz" if info.ends_message else b"wxyz") if info.has_payload else b""
    layers = ScapyBTH(opcode=opcode, dqpn=0x345678, psn=0xFFFFFE, ackreq=1, padcount=-len(payload) % 4)
    if info.has_reth:
        layers /= ScapyRETH(va=0x1000, rkey=0x77, dlen=3)
    if info.has_atomic_eth:
        layers /= ScapyAtomicETH(va=0x2008, rkey=0x78, swap_add=0xFFFF_FFFF_FFFF_FFFE, compare=0x8000_0000_0000_0001)
    if info.has_aeth:
        layers /= ScapyAETH(syndrome=0x60, msn=9)
    if info.has_atomic_ack_eth:
        layers /= ScapyAtomicAckETH(orig=0xDEAD_BEEF_0BAD_F00D)
    if info.has_cnp_padding:
        layers /= ScapyCNPPadding()
    if info.has_immdt:
        layers /= ScapyImmDt(imm=0x01020304)
    if payload:
        layers /= Raw(payload + bytes(-len(payload) % 4))
    frame = bytes(Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02")
                  / IP(src="10.0.0.1", dst="10.0.0.2", flags="DF") / UDP(sport=1234, dport=4791) / layers)
    packet = parse_frame(frame)
    assert packet.bth == BTH(opcode, 0x345678, 0xFFFFFE, ack_req=True)
    assert packet.atomic_eth == (AtomicETH(0x2008, 0x78, 0xFFFF_FFFF_FFFF_FFFE, 0x8000_0000_0000_0001)
                                 if info.has_atomic_eth else None)
    assert packet.atomic_ack_eth == (AtomicAckETH(0xDEAD_BEEF_0BAD_F00D) if info.has_atomic_ack_eth else None)
    assert packet.payload == payload
    assert packet.reth == (RETH(0x1000, 0x77, 3) if info.has_reth else None)
    assert packet.aeth == (AETH(0x60, 9) if info.has_aeth else None)
    assert packet.immdt == (ImmDt(0x01020304) if info.has_immdt else None)
    assert packet.addressing.udp_source_port == 1234, "any UDP source port is accepted"


def test_receiver_accepts_nonzero_udp_checksum_and_mac_padding():
    frame = bytearray(build_frame(_packet(Opcode.SEND_ONLY)))
    assert len(frame) == 58
    frame[40:42] = b"\x12\x34"  # masked from the ICRC, not verified
    assert parse_frame(bytes(frame) + bytes(2)).payload == b""


# ---- malformed frames -----------------------------------------------------------------------

def _malformed_frames():
    send = build_frame(_packet(Opcode.SEND_ONLY, b"payload!"))
    first = build_frame(_packet(Opcode.SEND_FIRST, bytes(256)))
    transport = bytearray(send[BTH_OFFSET:-ICRC_BYTES])

    def with_byte(frame, offset, value, reseal=True):
        changed = bytearray(frame)
        changed[offset] = value
        return reseal_icrc(bytes(changed)) if reseal else bytes(changed)

    cases = {
        MalformedCause.TRUNCATED: [
            send[:10], send[:30], send[:40], send[:BTH_OFFSET + 10],
            # A WRITE_ONLY whose 8 bytes after the BTH cannot hold its 16-byte RETH
            with_byte(send, BTH_OFFSET, Opcode.RDMA_WRITE_ONLY),
        ],
        MalformedCause.NOT_ROCE: [
            with_byte(send, 12, 0x86, reseal=False),                       # EtherType 0x86DD
            _fix_ip_checksum(bytearray(with_byte(send, 23, 6))),           # TCP
            with_byte(send, 37, 0xB6),                                     # UDP port 4790
            with_byte(send, 24, send[24] ^ 1, reseal=False),               # IP checksum
            _fix_ip_checksum(bytearray(with_byte(send, 14, 0x46))),        # IHL 6
            _fix_ip_checksum(bytearray(with_byte(send, 20, 0x60))),        # DF and MF: a fragment
        ],
        MalformedCause.BAD_VERSION: [with_byte(send, BTH_OFFSET + 1, 0x01),
                                     with_byte(send, BTH_OFFSET + 1, 0x80 | 0x0F)],  # solicited, version 15
        MalformedCause.BAD_PAD: [
            with_byte(first, BTH_OFFSET + 1, 0x10),                         # pad on a FIRST
            _reframe(send, bytes(transport) + b"\0"),                      # 9 bytes of payload and pad
            _reframe(send, bytes(BTH(Opcode.SEND_ONLY, 0x12, 5).encode(pad_count=3))),  # pad over nothing
        ],
        # 0x15 is reserved in RC, 0x16 (SEND_LAST_WITH_INVALIDATE) is not modelled, 0x80 is not a CNP
        MalformedCause.UNKNOWN_OPCODE: [with_byte(send, BTH_OFFSET, value)
                                        for value in (0x15, 0x16, 0x24, 0x64, 0x80, 0xFF)],
        MalformedCause.BAD_ICRC: [with_byte(send, len(send) - 6, 0x55, reseal=False),
                                  with_byte(send, len(send) - 1, send[-1] ^ 0x80, reseal=False),
                                  with_byte(send, BTH_OFFSET, Opcode.SEND_LAST, reseal=False)],
        MalformedCause.BAD_LENGTH: [
            _fix_ip_checksum(bytearray(with_byte(send, 17, send[17] + 4))),  # IP total runs past the frame
            with_byte(send, 39, send[39] - 4),                               # UDP length disagrees with IP
            send + bytes(4),                                                 # bytes after a 66-byte frame
            _reframe(send, bytes(build_frame(_packet(Opcode.ACKNOWLEDGE))[BTH_OFFSET:-ICRC_BYTES]) + bytes(4)),
        ],
    }
    return [pytest.param(cause, frame, id=f"{cause.value}-{index}")
            for cause, frames in cases.items() for index, frame in enumerate(frames)]


@pytest.mark.parametrize("cause,frame", _malformed_frames())
def test_malformed_frame_cause(cause, frame):
    with pytest.raises(MalformedFrame) as caught:
        parse_frame(frame)
    assert caught.value.cause is cause, str(caught.value)


@pytest.mark.parametrize("opcode,length", [
    (Opcode.SEND_ONLY, 257), (Opcode.SEND_FIRST, 252), (Opcode.SEND_FIRST, 512), (Opcode.RDMA_WRITE_MIDDLE, 128),
    (Opcode.RDMA_READ_RESPONSE_LAST, 0), (Opcode.RDMA_READ_RESPONSE_ONLY, 260)])
def test_payload_size_checked_against_pmtu(opcode, length):
    frame = build_frame(_packet(opcode, bytes(length)))
    parse_frame(frame)
    with pytest.raises(MalformedFrame) as caught:
        parse_frame(frame, pmtu=256)
    assert caught.value.cause is MalformedCause.OVER_PMTU


def test_build_refuses_headers_the_opcode_does_not_carry():
    with pytest.raises(ValueError):
        build_frame(RocePacket(ADDRESSING, BTH(Opcode.SEND_ONLY, 1, 1), reth=RETH(0, 0, 0)))
    with pytest.raises(ValueError):
        build_frame(RocePacket(ADDRESSING, BTH(Opcode.RDMA_WRITE_FIRST, 1, 1)))
    with pytest.raises(ValueError):
        build_frame(RocePacket(ADDRESSING, BTH(Opcode.ACKNOWLEDGE, 1, 1), aeth=AETH(0, 0), payload=b"x"))


# ---- PSN arithmetic -------------------------------------------------------------------------

def _rxe_psn_sign(a: int, b: int) -> int:
    """rxe: (int32)((a - b) << 8), computed in numpy's fixed-width integers."""
    value = np.array([(a - b) << 8], dtype=np.int64).astype(np.uint32).view(np.int32)[0]
    return int(np.sign(value))


def test_psn_add_wraps():
    assert psn_add(PSN_MODULUS - 1, 1) == 0
    assert psn_add(PSN_MODULUS - 2, 5) == 3
    assert psn_add(3, -5) == PSN_MODULUS - 2


@pytest.mark.parametrize("a,b,expected", [
    (5, 5, 0), (6, 5, 1), (5, 6, -1), (0, PSN_MODULUS - 1, 1), (PSN_MODULUS - 1, 0, -1),
    ((1 << 23) - 1, 0, (1 << 23) - 1), (1 << 23, 0, -(1 << 23)), (0, 1 << 23, -(1 << 23))])
def test_psn_compare_cases(a, b, expected):
    assert psn_compare(a, b) == expected
    assert _rxe_psn_sign(a, b) == int(np.sign(expected))


def test_psn_compare_sign_matches_rxe():
    rng = random.Random(1)
    for _ in range(2000):
        a, b = rng.randrange(PSN_MODULUS), rng.randrange(PSN_MODULUS)
        assert int(np.sign(psn_compare(a, b))) == _rxe_psn_sign(a, b)


# ---- segmentation ---------------------------------------------------------------------------

@pytest.mark.parametrize("pmtu", PMTUS)
@pytest.mark.parametrize("operation", [Operation.SEND, Operation.RDMA_WRITE, Operation.RDMA_READ_RESPONSE])
def test_segmentation_at_each_pmtu(pmtu, operation):
    prefix = {Operation.SEND: "SEND", Operation.RDMA_WRITE: "RDMA_WRITE",
              Operation.RDMA_READ_RESPONSE: "RDMA_READ_RESPONSE"}[operation]
    for length, expected in [
        (0, [("ONLY", 0)]), (1, [("ONLY", 1)]), (pmtu - 1, [("ONLY", pmtu - 1)]), (pmtu, [("ONLY", pmtu)]),
        (pmtu + 1, [("FIRST", pmtu), ("LAST", 1)]),
        (2 * pmtu, [("FIRST", pmtu), ("LAST", pmtu)]),
        (3 * pmtu + 5, [("FIRST", pmtu), ("MIDDLE", pmtu), ("MIDDLE", pmtu), ("LAST", 5)]),
    ]:
        segments = segment_message(operation, length, pmtu)
        assert [(segment.opcode.name, segment.length) for segment in segments] == \
            [(f"{prefix}_{position}", size) for position, size in expected]
        assert [segment.offset for segment in segments] == [index * pmtu for index in range(len(segments))]
        for segment in segments:
            packet = _packet(segment.opcode, bytes(segment.length))
            assert parse_frame(build_frame(packet), pmtu=pmtu).payload == packet.payload


def test_immediate_rides_on_the_last_packet():
    assert [s.opcode for s in segment_message(Operation.SEND, 300, 256, with_immediate=True)] == \
        [Opcode.SEND_FIRST, Opcode.SEND_LAST_WITH_IMMEDIATE]
    assert [s.opcode for s in segment_message(Operation.RDMA_WRITE, 0, 256, with_immediate=True)] == \
        [Opcode.RDMA_WRITE_ONLY_WITH_IMMEDIATE]
    with pytest.raises(KeyError):
        segment_message(Operation.RDMA_READ_RESPONSE, 10, 256, with_immediate=True)
    with pytest.raises(ValueError):
        segment_message(Operation.SEND, 10, 1500)


# ---- pcap -----------------------------------------------------------------------------------

def test_pcap_holds_the_frames_as_ethernet(tmp_path):
    frames = [build_frame(_packet(opcode, bytes(7))) for opcode in (Opcode.SEND_ONLY, Opcode.RDMA_READ_RESPONSE_ONLY)]
    path = tmp_path / "roce.pcap"
    write_pcap(path, [(frames[0], 1_000_000_123), (frames[1], 2_500)])
    reader = RawPcapReader(str(path))
    records = list(reader)
    assert reader.linktype == 1
    assert [record for record, _ in records] == frames
    assert [(meta.sec, meta.usec) for _, meta in records] == [(1, 123), (0, 2500)]
