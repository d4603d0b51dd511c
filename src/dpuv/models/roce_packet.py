# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""RoCEv2 packets on Ethernet and IPv4, written from the protocol facts in
docs/reference/roce.md: the RC opcode table, the BTH and its extension headers (RETH,
AtomicETH, AETH, AtomicAckETH, ImmDt), the congestion notification packet (CNP), frame building
and checking with the ICRC, message segmentation at a path MTU, and 24-bit PSN arithmetic.

Frame: Ethernet (14) | IPv4 (20, DF, protocol 17) | UDP (8, destination port 4791, checksum 0) |
BTH (12) | extension headers | payload | pad to a 4-byte multiple | ICRC (4, least significant
byte first). No FCS: the MAC adds it, and the Ethernet minimum-size padding with it.

The reliable-connection SEND, RDMA WRITE, RDMA READ, atomic (COMPARE_SWAP, FETCH_ADD and their
ATOMIC_ACKNOWLEDGE) and ACKNOWLEDGE opcodes are modelled, and the CNP; invalidates, UC and UD are
reported as unknown opcodes. Frames are untagged IPv4
without IP options (the ICRC's masked offsets assume a 20-byte header); a receiver accepts bytes
after the IP packet only as the MAC's padding up to the 60-byte minimum frame.
"""

from __future__ import annotations

import ipaddress
import struct
import zlib
from dataclasses import dataclass, replace
from enum import Enum, IntEnum

ROCE_UDP_PORT = 4791
ETHERTYPE_IPV4 = 0x0800
IP_PROTOCOL_UDP = 17
IPV4_DONT_FRAGMENT = 0x4000

ETHERNET_HEADER_BYTES = 14
IPV4_HEADER_BYTES = 20
UDP_HEADER_BYTES = 8
BTH_BYTES = 12
RETH_BYTES = 16
AETH_BYTES = 4
IMMDT_BYTES = 4
ATOMIC_ETH_BYTES = 28
ATOMIC_ACK_ETH_BYTES = 8
# A CNP carries 16 reserved bytes after its BTH (RoCEv2 annex A17), sent as zeros
CNP_PADDING_BYTES = 16
ICRC_BYTES = 4
# Where the BTH starts in a frame
BTH_OFFSET = ETHERNET_HEADER_BYTES + IPV4_HEADER_BYTES + UDP_HEADER_BYTES
# Ethernet's minimum frame without FCS; a MAC pads shorter frames (a bare SEND_ONLY is 58 bytes)
MIN_ETHERNET_FRAME_BYTES = 60

PMTUS = (256, 512, 1024, 2048, 4096)
PSN_BITS = 24
PSN_MODULUS = 1 << PSN_BITS
PSN_HALF_WINDOW = 1 << (PSN_BITS - 1)
MAX_MESSAGE_BYTES = 1 << 31
ATOMIC_OPERAND_BYTES = 8

# ECN codepoints in the IPv4 TOS byte, bits 1:0 (RFC 3168)
ECN_MASK = 0x3
ECN_NOT_ECT = 0b00
ECN_ECT1 = 0b01
ECN_ECT0 = 0b10
ECN_CE = 0b11


class Opcode(IntEnum):
    """BTH opcodes of the reliable connection transport (transport base 0x00)."""
    SEND_FIRST = 0x00
    SEND_MIDDLE = 0x01
    SEND_LAST = 0x02
    SEND_LAST_WITH_IMMEDIATE = 0x03
    SEND_ONLY = 0x04
    SEND_ONLY_WITH_IMMEDIATE = 0x05
    RDMA_WRITE_FIRST = 0x06
    RDMA_WRITE_MIDDLE = 0x07
    RDMA_WRITE_LAST = 0x08
    RDMA_WRITE_LAST_WITH_IMMEDIATE = 0x09
    RDMA_WRITE_ONLY = 0x0A
    RDMA_WRITE_ONLY_WITH_IMMEDIATE = 0x0B
    RDMA_READ_REQUEST = 0x0C
    RDMA_READ_RESPONSE_FIRST = 0x0D
    RDMA_READ_RESPONSE_MIDDLE = 0x0E
    RDMA_READ_RESPONSE_LAST = 0x0F
    RDMA_READ_RESPONSE_ONLY = 0x10
    ACKNOWLEDGE = 0x11
    ATOMIC_ACKNOWLEDGE = 0x12
    COMPARE_SWAP = 0x13
    FETCH_ADD = 0x14
    # Not an RC opcode: RoCEv2's congestion notification packet, in the 0x80 block
    CNP = 0x81


class Operation(Enum):
    SEND = "send"
    RDMA_WRITE = "rdma_write"
    RDMA_READ_REQUEST = "rdma_read_request"
    RDMA_READ_RESPONSE = "rdma_read_response"
    ACKNOWLEDGE = "acknowledge"
    COMPARE_SWAP = "compare_swap"
    FETCH_ADD = "fetch_add"
    ATOMIC_ACKNOWLEDGE = "atomic_acknowledge"
    CNP = "cnp"


ATOMIC_OPERATIONS = (Operation.COMPARE_SWAP, Operation.FETCH_ADD)


class Position(Enum):
    """Where a packet sits in its message; single-packet messages and requests are ONLY."""
    FIRST = "first"
    MIDDLE = "middle"
    LAST = "last"
    ONLY = "only"


@dataclass(frozen=True)
class OpcodeInfo:
    operation: Operation
    position: Position
    has_reth: bool = False
    has_aeth: bool = False
    has_immdt: bool = False
    has_atomic_eth: bool = False
    has_atomic_ack_eth: bool = False
    has_cnp_padding: bool = False
    has_payload: bool = True

    @property
    def starts_message(self) -> bool:
        return self.position in (Position.FIRST, Position.ONLY)

    @property
    def ends_message(self) -> bool:
        return self.position in (Position.LAST, Position.ONLY)

    @property
    def is_request(self) -> bool:
        """Requests travel requester to responder; responses (ACKs, read data, atomic results)
        come back. A CNP is neither."""
        return self.operation in (Operation.SEND, Operation.RDMA_WRITE, Operation.RDMA_READ_REQUEST,
                                  *ATOMIC_OPERATIONS)

    @property
    def is_atomic(self) -> bool:
        return self.operation in ATOMIC_OPERATIONS

    @property
    def extension_header_bytes(self) -> int:
        """Bytes between the BTH and the payload (the CNP's reserved bytes count as a header)."""
        return (RETH_BYTES * self.has_reth + ATOMIC_ETH_BYTES * self.has_atomic_eth + AETH_BYTES * self.has_aeth
                + ATOMIC_ACK_ETH_BYTES * self.has_atomic_ack_eth + IMMDT_BYTES * self.has_immdt
                + CNP_PADDING_BYTES * self.has_cnp_padding)


_SEND, _WRITE, _RESPONSE = Operation.SEND, Operation.RDMA_WRITE, Operation.RDMA_READ_RESPONSE
_FIRST, _MIDDLE, _LAST, _ONLY = Position.FIRST, Position.MIDDLE, Position.LAST, Position.ONLY

OPCODE_INFO: dict[Opcode, OpcodeInfo] = {
    Opcode.SEND_FIRST: OpcodeInfo(_SEND, _FIRST),
    Opcode.SEND_MIDDLE: OpcodeInfo(_SEND, _MIDDLE),
    Opcode.SEND_LAST: OpcodeInfo(_SEND, _LAST),
    Opcode.SEND_LAST_WITH_IMMEDIATE: OpcodeInfo(_SEND, _LAST, has_immdt=True),
    Opcode.SEND_ONLY: OpcodeInfo(_SEND, _ONLY),
    Opcode.SEND_ONLY_WITH_IMMEDIATE: OpcodeInfo(_SEND, _ONLY, has_immdt=True),
    Opcode.RDMA_WRITE_FIRST: OpcodeInfo(_WRITE, _FIRST, has_reth=True),
    Opcode.RDMA_WRITE_MIDDLE: OpcodeInfo(_WRITE, _MIDDLE),
    Opcode.RDMA_WRITE_LAST: OpcodeInfo(_WRITE, _LAST),
    Opcode.RDMA_WRITE_LAST_WITH_IMMEDIATE: OpcodeInfo(_WRITE, _LAST, has_immdt=True),
    Opcode.RDMA_WRITE_ONLY: OpcodeInfo(_WRITE, _ONLY, has_reth=True),
    Opcode.RDMA_WRITE_ONLY_WITH_IMMEDIATE: OpcodeInfo(_WRITE, _ONLY, has_reth=True, has_immdt=True),
    Opcode.RDMA_READ_REQUEST: OpcodeInfo(Operation.RDMA_READ_REQUEST, _ONLY, has_reth=True, has_payload=False),
    # MIDDLE carries no AETH: only the packets that start or end a response acknowledge
    Opcode.RDMA_READ_RESPONSE_FIRST: OpcodeInfo(_RESPONSE, _FIRST, has_aeth=True),
    Opcode.RDMA_READ_RESPONSE_MIDDLE: OpcodeInfo(_RESPONSE, _MIDDLE),
    Opcode.RDMA_READ_RESPONSE_LAST: OpcodeInfo(_RESPONSE, _LAST, has_aeth=True),
    Opcode.RDMA_READ_RESPONSE_ONLY: OpcodeInfo(_RESPONSE, _ONLY, has_aeth=True),
    Opcode.ACKNOWLEDGE: OpcodeInfo(Operation.ACKNOWLEDGE, _ONLY, has_aeth=True, has_payload=False),
    Opcode.ATOMIC_ACKNOWLEDGE: OpcodeInfo(Operation.ATOMIC_ACKNOWLEDGE, _ONLY, has_aeth=True, has_atomic_ack_eth=True,
                                          has_payload=False),
    Opcode.COMPARE_SWAP: OpcodeInfo(Operation.COMPARE_SWAP, _ONLY, has_atomic_eth=True, has_payload=False),
    Opcode.FETCH_ADD: OpcodeInfo(Operation.FETCH_ADD, _ONLY, has_atomic_eth=True, has_payload=False),
    Opcode.CNP: OpcodeInfo(Operation.CNP, _ONLY, has_cnp_padding=True, has_payload=False),
}


_OPCODE_BY_SHAPE = {(info.operation, info.position, info.has_immdt): opcode for opcode, info in OPCODE_INFO.items()}


def is_known_opcode(opcode: int) -> bool:
    return opcode in OPCODE_INFO


def opcode_info(opcode: int) -> OpcodeInfo:
    """What an opcode carries; KeyError for an opcode this model does not know."""
    return OPCODE_INFO[opcode]


def opcode_for(operation: Operation, position: Position, with_immediate: bool = False) -> Opcode:
    """The opcode of a packet at `position` in a message; KeyError for combinations that do not
    exist (an immediate on a FIRST packet, on a read response, ...)."""
    return _OPCODE_BY_SHAPE[operation, position, with_immediate]


class AckType(IntEnum):
    """AETH syndrome bits 6:5."""
    ACK = 0
    RNR_NAK = 1
    RESERVED = 2
    NAK = 3


ACK_UNLIMITED_CREDIT = 0x1F
NAK_PSN_SEQUENCE_ERROR = 0x60
NAK_INVALID_REQUEST = 0x61
NAK_REMOTE_ACCESS_ERROR = 0x62
NAK_REMOTE_OPERATIONAL_ERROR = 0x63
NAK_INVALID_RD_REQUEST = 0x64


def rnr_nak_syndrome(timer_code: int) -> int:
    if not 0 <= timer_code < 32:
        raise ValueError(f"RNR timer code {timer_code} is not 5 bits")
    return (AckType.RNR_NAK << 5) | timer_code


@dataclass(frozen=True)
class BTH:
    """Base transport header. The pad count and transport version are not fields here: the pad
    always follows from the payload length and the version is always 0, so build_frame writes
    them and parse_frame checks them."""
    opcode: int
    dest_qp: int
    psn: int
    ack_req: bool = False
    solicited: bool = False
    migration: bool = False
    pkey: int = 0xFFFF
    fecn: bool = False
    becn: bool = False

    def encode(self, pad_count: int) -> bytes:
        flags = (self.solicited << 7) | (self.migration << 6) | (pad_count << 4)
        congestion = (self.fecn << 7) | (self.becn << 6)
        return struct.pack("!BBHB3sB3s", self.opcode, flags, self.pkey, congestion,
                           self.dest_qp.to_bytes(3, "big"), self.ack_req << 7, self.psn.to_bytes(3, "big"))


def _decode_bth(data: bytes) -> tuple[BTH, int, int]:
    """The BTH, its pad count and its transport version."""
    opcode, flags, pkey, congestion, dest_qp, ack_byte, psn = struct.unpack("!BBHB3sB3s", data[:BTH_BYTES])
    bth = BTH(opcode=opcode, dest_qp=int.from_bytes(dest_qp, "big"), psn=int.from_bytes(psn, "big"),
              ack_req=bool(ack_byte & 0x80), solicited=bool(flags & 0x80), migration=bool(flags & 0x40),
              pkey=pkey, fecn=bool(congestion & 0x80), becn=bool(congestion & 0x40))
    return bth, (flags >> 4) & 0x3, flags & 0xF


@dataclass(frozen=True)
class RETH:
    virtual_address: int
    rkey: int
    dma_length: int

    def encode(self) -> bytes:
        return struct.pack("!QII", self.virtual_address, self.rkey, self.dma_length)

    @classmethod
    def decode(cls, data: bytes) -> RETH:
        return cls(*struct.unpack("!QII", data[:RETH_BYTES]))


@dataclass(frozen=True)
class AETH:
    syndrome: int
    msn: int

    @property
    def ack_type(self) -> AckType:
        return AckType((self.syndrome >> 5) & 0x3)

    @property
    def value(self) -> int:
        """Credit count for an ACK, timer code for an RNR NAK, NAK code for a NAK."""
        return self.syndrome & 0x1F

    def encode(self) -> bytes:
        return bytes([self.syndrome]) + self.msn.to_bytes(3, "big")

    @classmethod
    def decode(cls, data: bytes) -> AETH:
        return cls(data[0], int.from_bytes(data[1:AETH_BYTES], "big"))


@dataclass(frozen=True)
class AtomicETH:
    """The atomic request header: the 8-byte aligned address and R_Key of the remote operand,
    the swap value (COMPARE_SWAP) or the addend (FETCH_ADD), and the compare value (COMPARE_SWAP
    only; FETCH_ADD sends it as zero and the responder ignores it)."""
    virtual_address: int
    rkey: int
    swap_add: int
    compare: int = 0

    def encode(self) -> bytes:
        return struct.pack("!QIQQ", self.virtual_address, self.rkey, self.swap_add, self.compare)

    @classmethod
    def decode(cls, data: bytes) -> AtomicETH:
        return cls(*struct.unpack("!QIQQ", data[:ATOMIC_ETH_BYTES]))


@dataclass(frozen=True)
class AtomicAckETH:
    """The value the remote operand held before the atomic operation."""
    original: int

    def encode(self) -> bytes:
        return struct.pack("!Q", self.original)

    @classmethod
    def decode(cls, data: bytes) -> AtomicAckETH:
        return cls(struct.unpack("!Q", data[:ATOMIC_ACK_ETH_BYTES])[0])


@dataclass(frozen=True)
class ImmDt:
    value: int

    def encode(self) -> bytes:
        return struct.pack("!I", self.value)

    @classmethod
    def decode(cls, data: bytes) -> ImmDt:
        return cls(struct.unpack("!I", data[:IMMDT_BYTES])[0])


@dataclass(frozen=True)
class Endpoint:
    """One side of a connection: where it is and the UDP source port it sends from (rxe picks
    0xC000 plus a hash of the QP number for ECMP entropy; any port is legal)."""
    mac: str
    ip: str
    udp_source_port: int = 0xC000


@dataclass(frozen=True)
class Addressing:
    """The Ethernet, IPv4 and UDP fields of one frame that are not fixed by RoCEv2."""
    source_mac: str
    destination_mac: str
    source_ip: str
    destination_ip: str
    udp_source_port: int
    tos: int = 0  # DSCP and ECN; masked out of the ICRC so a switch may mark ECN
    ttl: int = 64

    @classmethod
    def between(cls, local: Endpoint, remote: Endpoint, tos: int = 0, ttl: int = 64) -> Addressing:
        return cls(local.mac, remote.mac, local.ip, remote.ip, local.udp_source_port, tos, ttl)


@dataclass(frozen=True)
class RocePacket:
    addressing: Addressing
    bth: BTH
    reth: RETH | None = None
    aeth: AETH | None = None
    immdt: ImmDt | None = None
    payload: bytes = b""
    # After the payload so that the positional form of the other fields stays as it was
    atomic_eth: AtomicETH | None = None
    atomic_ack_eth: AtomicAckETH | None = None

    @property
    def info(self) -> OpcodeInfo:
        return opcode_info(self.bth.opcode)

    @property
    def ecn(self) -> int:
        return self.addressing.tos & ECN_MASK


def cnp_packet(addressing: Addressing, dest_qp: int, pkey: int = 0xFFFF) -> RocePacket:
    """A congestion notification packet to `dest_qp` (the QP whose packets were marked, at the
    far end): BECN set, PSN and the other BTH flags zero, as annex A17 describes it and as
    scapy's cnp() builds it."""
    return RocePacket(addressing, BTH(Opcode.CNP, dest_qp, 0, pkey=pkey, becn=True))


class MalformedCause(Enum):
    TRUNCATED = "truncated"
    NOT_ROCE = "not_roce"
    BAD_VERSION = "bad_version"
    BAD_PAD = "bad_pad"
    UNKNOWN_OPCODE = "unknown_opcode"
    BAD_ICRC = "bad_icrc"
    OVER_PMTU = "over_pmtu"
    BAD_LENGTH = "bad_length"


class MalformedFrame(ValueError):
    def __init__(self, cause: MalformedCause, detail: str):
        super().__init__(f"{cause.value}: {detail}")
        self.cause = cause


def _mac_bytes(mac: str) -> bytes:
    return bytes.fromhex(mac.replace(":", ""))


def _mac_text(data: bytes) -> str:
    return ":".join(f"{byte:02x}" for byte in data)


def ipv4_checksum(header: bytes) -> int:
    """Ones' complement of the ones' complement sum of the header's 16-bit words; a header that
    already holds its checksum sums to 0."""
    total = sum(struct.unpack(f"!{len(header) // 2}H", header))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


# Offsets, from the start of the IPv4 header, of the fields the ICRC sees as all ones
_ICRC_MASKED_BYTES = (
    1,                                              # IPv4 TOS (DSCP and ECN)
    8,                                              # IPv4 TTL
    10, 11,                                         # IPv4 header checksum
    IPV4_HEADER_BYTES + 6, IPV4_HEADER_BYTES + 7,   # UDP checksum
    IPV4_HEADER_BYTES + UDP_HEADER_BYTES + 4,       # BTH byte 4: FECN, BECN, reserved
)
_ICRC_MASKED_SPAN = max(_ICRC_MASKED_BYTES) + 1
# The 8 bytes of 0xFF stand in for InfiniBand's LRH, which RoCEv2 does not carry
_ICRC_SEED = zlib.crc32(b"\xff" * 8)


def icrc(ip_onwards: bytes) -> int:
    """The invariant CRC of a RoCEv2 packet over IPv4: `ip_onwards` runs from the IPv4 header
    (20 bytes, no options) through the pad, without the ICRC itself. Sent least significant
    byte first."""
    head = bytearray(ip_onwards[:_ICRC_MASKED_SPAN])
    for offset in _ICRC_MASKED_BYTES:
        head[offset] = 0xFF
    # Only the head is copied for masking; the payload goes to zlib as it is
    return zlib.crc32(ip_onwards[_ICRC_MASKED_SPAN:], zlib.crc32(head, _ICRC_SEED))


def _extension_headers(packet: RocePacket) -> list:
    """The packet's extension headers in wire order: RETH, AtomicETH, AETH, AtomicAckETH, ImmDt."""
    return [packet.reth, packet.atomic_eth, packet.aeth, packet.atomic_ack_eth, packet.immdt]


def build_frame(packet: RocePacket) -> bytes:
    info = packet.info
    for name, present, wanted in [("RETH", packet.reth, info.has_reth), ("AETH", packet.aeth, info.has_aeth),
                                  ("ImmDt", packet.immdt, info.has_immdt),
                                  ("AtomicETH", packet.atomic_eth, info.has_atomic_eth),
                                  ("AtomicAckETH", packet.atomic_ack_eth, info.has_atomic_ack_eth)]:
        if (present is not None) != wanted:
            raise ValueError(f"{Opcode(packet.bth.opcode).name} {'needs' if wanted else 'has no'} {name}")
    if packet.payload and not info.has_payload:
        raise ValueError(f"{Opcode(packet.bth.opcode).name} carries no payload")
    pad_count = -len(packet.payload) % 4
    transport = packet.bth.encode(pad_count)
    transport += b"".join(header.encode() for header in _extension_headers(packet) if header)
    transport += bytes(CNP_PADDING_BYTES * info.has_cnp_padding)
    transport += packet.payload + bytes(pad_count)

    address = packet.addressing
    udp_length = UDP_HEADER_BYTES + len(transport) + ICRC_BYTES
    ip_header = bytearray(struct.pack(
        "!BBHHHBBH4s4s", 0x45, address.tos, IPV4_HEADER_BYTES + udp_length, 0, IPV4_DONT_FRAGMENT,
        address.ttl, IP_PROTOCOL_UDP, 0, ipaddress.IPv4Address(address.source_ip).packed,
        ipaddress.IPv4Address(address.destination_ip).packed))
    ip_header[10:12] = ipv4_checksum(bytes(ip_header)).to_bytes(2, "big")
    # UDP checksum 0 (not computed), as rxe sends it; the ICRC protects the transport instead
    udp_header = struct.pack("!HHHH", address.udp_source_port, ROCE_UDP_PORT, udp_length, 0)
    ip_onwards = bytes(ip_header) + udp_header + transport
    ethernet = _mac_bytes(address.destination_mac) + _mac_bytes(address.source_mac) + ETHERTYPE_IPV4.to_bytes(2, "big")
    return ethernet + ip_onwards + icrc(ip_onwards).to_bytes(ICRC_BYTES, "little")


def parse_frame_or_none(frame: bytes, pmtu: int) -> RocePacket | None:
    """The packet, or None if a receiver at this PMTU drops the frame as malformed."""
    try:
        return parse_frame(frame, pmtu)
    except MalformedFrame:
        return None


def with_ip_header(frame: bytes, offset: int, value: bytes) -> bytes:
    """The frame with bytes of its IPv4 header replaced (`offset` counted from the frame's start)
    and the header checksum made right again."""
    data = bytearray(frame)
    data[offset:offset + len(value)] = value
    checksum = slice(ETHERNET_HEADER_BYTES + 10, ETHERNET_HEADER_BYTES + 12)
    data[checksum] = b"\0\0"
    header = bytes(data[ETHERNET_HEADER_BYTES:ETHERNET_HEADER_BYTES + IPV4_HEADER_BYTES])
    data[checksum] = ipv4_checksum(header).to_bytes(2, "big")
    return bytes(data)


def with_ecn(frame: bytes, ecn: int) -> bytes:
    """The frame with the ECN field (IPv4 TOS bits 1:0) set to `ecn` and its IPv4 header checksum
    made right again, as a switch marking CE leaves it; the ICRC does not cover the TOS byte, so
    it stays right."""
    tos = ETHERNET_HEADER_BYTES + 1
    return with_ip_header(frame, tos, bytes([(frame[tos] & ~ECN_MASK & 0xFF) | (ecn & ECN_MASK)]))


def reseal_icrc(frame: bytes) -> bytes:
    """The frame with its ICRC recomputed: for building frames that are wrong in some other way
    (a bad version, a bad pad) on purpose, so that a receiver must find that fault itself."""
    ip_end = ETHERNET_HEADER_BYTES + int.from_bytes(frame[16:18], "big")
    ip_onwards = frame[ETHERNET_HEADER_BYTES:ip_end - ICRC_BYTES]
    return frame[:ETHERNET_HEADER_BYTES] + ip_onwards + icrc(ip_onwards).to_bytes(ICRC_BYTES, "little") + frame[ip_end:]


def with_transport(frame: bytes, transport: bytes) -> bytes:
    """The frame (untagged IPv4, no IP options, no MAC padding) with another transport: BTH
    onwards to the ICRC's start, with its IPv4 and UDP lengths, IPv4 checksum and ICRC made right
    again. For building frames whose transport is wrong in some way on purpose."""
    header = bytearray(frame[:BTH_OFFSET])
    ip_length = IPV4_HEADER_BYTES + UDP_HEADER_BYTES + len(transport) + ICRC_BYTES
    header[16:18] = ip_length.to_bytes(2, "big")
    header[38:40] = (ip_length - IPV4_HEADER_BYTES).to_bytes(2, "big")
    header[24:26] = b"\0\0"
    header[24:26] = ipv4_checksum(bytes(header[ETHERNET_HEADER_BYTES:ETHERNET_HEADER_BYTES + IPV4_HEADER_BYTES])) \
        .to_bytes(2, "big")
    return reseal_icrc(bytes(header) + transport + bytes(ICRC_BYTES))


def _require(condition: bool, cause: MalformedCause, detail: str) -> None:
    if not condition:
        raise MalformedFrame(cause, detail)


def _parse_link_headers(frame: bytes) -> tuple[Addressing, int]:
    """The Ethernet, IPv4 and UDP headers, checked, and where the IP packet ends."""
    truncated, not_roce, bad_length = MalformedCause.TRUNCATED, MalformedCause.NOT_ROCE, MalformedCause.BAD_LENGTH
    _require(len(frame) >= ETHERNET_HEADER_BYTES, truncated, f"{len(frame)} bytes hold no Ethernet header")
    ethertype = int.from_bytes(frame[12:14], "big")
    _require(ethertype == ETHERTYPE_IPV4, not_roce, f"EtherType {ethertype:#06x} is not IPv4")

    ip_start = ETHERNET_HEADER_BYTES
    _require(len(frame) >= ip_start + IPV4_HEADER_BYTES, truncated, "frame ends inside the IPv4 header")
    ip_header = frame[ip_start:ip_start + IPV4_HEADER_BYTES]
    (version_ihl, tos, ip_total_length, _identification, flags_fragment, ttl, protocol, _checksum,
     source_ip, destination_ip) = struct.unpack("!BBHHHBBH4s4s", ip_header)
    # Options would shift the ICRC's masked offsets; RoCEv2 senders do not use them
    _require(version_ihl == 0x45, not_roce, f"IPv4 version/IHL byte {version_ihl:#04x}, not 0x45")
    _require(ipv4_checksum(ip_header) == 0, not_roce, "IPv4 header checksum is wrong")
    _require(flags_fragment & 0x3FFF == 0, not_roce, "IPv4 fragment")
    _require(protocol == IP_PROTOCOL_UDP, not_roce, f"IP protocol {protocol}, not UDP")

    udp_start = ip_start + IPV4_HEADER_BYTES
    _require(len(frame) >= udp_start + UDP_HEADER_BYTES, truncated, "frame ends inside the UDP header")
    udp_source_port, udp_destination_port, udp_length, _udp_checksum = struct.unpack(
        "!HHHH", frame[udp_start:udp_start + UDP_HEADER_BYTES])
    _require(udp_destination_port == ROCE_UDP_PORT, not_roce, f"UDP destination port {udp_destination_port}")
    _require(len(frame) >= BTH_OFFSET + BTH_BYTES + ICRC_BYTES, truncated, "frame too short for BTH and ICRC")

    ip_end = ip_start + ip_total_length
    _require(udp_length == ip_total_length - IPV4_HEADER_BYTES, bad_length,
             f"UDP length {udp_length} against IPv4 total length {ip_total_length}")
    _require(udp_length >= UDP_HEADER_BYTES + BTH_BYTES + ICRC_BYTES, bad_length, f"UDP length {udp_length}")
    _require(ip_end <= len(frame), bad_length, f"IPv4 total length {ip_total_length} runs past the frame")
    # Bytes after the IP packet are only allowed as the MAC's padding up to the minimum frame
    _require(ip_end == len(frame) or len(frame) <= MIN_ETHERNET_FRAME_BYTES, bad_length,
             f"{len(frame) - ip_end} bytes after the IP packet")

    addressing = Addressing(
        source_mac=_mac_text(frame[6:12]), destination_mac=_mac_text(frame[0:6]),
        source_ip=str(ipaddress.IPv4Address(source_ip)), destination_ip=str(ipaddress.IPv4Address(destination_ip)),
        udp_source_port=udp_source_port, tos=tos, ttl=ttl)
    return addressing, ip_end


def _parse_extension_headers(frame: bytes, info: OpcodeInfo, name: str, icrc_start: int) -> tuple[dict, int]:
    """The extension headers the opcode carries, read in wire order, by RocePacket field name,
    and where they end. A CNP's reserved bytes are skipped: receivers ignore reserved fields."""
    offset = BTH_OFFSET + BTH_BYTES
    headers_end = offset + info.extension_header_bytes
    _require(headers_end <= icrc_start, MalformedCause.TRUNCATED, f"{name} ends inside its extension headers")
    headers = {}
    for field_name, header, size, present in [
            ("reth", RETH, RETH_BYTES, info.has_reth), ("atomic_eth", AtomicETH, ATOMIC_ETH_BYTES, info.has_atomic_eth),
            ("aeth", AETH, AETH_BYTES, info.has_aeth),
            ("atomic_ack_eth", AtomicAckETH, ATOMIC_ACK_ETH_BYTES, info.has_atomic_ack_eth),
            ("immdt", ImmDt, IMMDT_BYTES, info.has_immdt)]:
        if present:
            headers[field_name] = header.decode(frame[offset:offset + size])
            offset += size
    return headers, headers_end


def _check_payload_size(length: int, info: OpcodeInfo, name: str, pmtu: int) -> None:
    over = MalformedCause.OVER_PMTU
    _require(length <= pmtu, over, f"{length} payload bytes over PMTU {pmtu}")
    if info.position in (Position.FIRST, Position.MIDDLE):
        _require(length == pmtu, over, f"{name} carries {length} bytes, not PMTU {pmtu}")
    # A LAST packet finishes a message that did not fit one packet, so it carries at least a byte
    if info.position is Position.LAST:
        _require(length > 0, over, f"{name} carries no payload")


def parse_frame(frame: bytes, pmtu: int | None = None) -> RocePacket:
    """The packet in a frame (without FCS), or MalformedFrame naming the first fault found, in
    the order a receiver meets them: Ethernet, IPv4 and UDP headers; length fields; ICRC; BTH;
    extension headers; pad; and, when `pmtu` is given, the payload size for the packet's
    position. Any UDP source port and any UDP checksum (0 included) are accepted: the checksum
    is masked out of the ICRC and rxe sends 0."""
    addressing, ip_end = _parse_link_headers(frame)
    icrc_start = ip_end - ICRC_BYTES
    sent_icrc = int.from_bytes(frame[icrc_start:ip_end], "little")
    _require(icrc(frame[ETHERNET_HEADER_BYTES:icrc_start]) == sent_icrc, MalformedCause.BAD_ICRC, "ICRC mismatch")

    bth, pad_count, version = _decode_bth(frame[BTH_OFFSET:BTH_OFFSET + BTH_BYTES])
    _require(version == 0, MalformedCause.BAD_VERSION, f"BTH transport version {version}")
    _require(is_known_opcode(bth.opcode), MalformedCause.UNKNOWN_OPCODE, f"opcode {bth.opcode:#04x}")
    bth = replace(bth, opcode=Opcode(bth.opcode))
    info, name = opcode_info(bth.opcode), bth.opcode.name
    headers, headers_end = _parse_extension_headers(frame, info, name, icrc_start)

    padded_length = icrc_start - headers_end
    if not info.has_payload:
        _require(padded_length == 0, MalformedCause.BAD_LENGTH, f"{name} followed by {padded_length} bytes")
    bad_pad = MalformedCause.BAD_PAD
    _require(padded_length % 4 == 0, bad_pad, f"payload and pad of {padded_length} bytes")
    _require(pad_count <= padded_length, bad_pad, f"pad count {pad_count} over {padded_length} bytes")
    # FIRST and MIDDLE carry exactly a PMTU, a multiple of 4, so they never need a pad
    _require(pad_count == 0 or info.ends_message, bad_pad, f"pad count {pad_count} on {name}")
    payload = frame[headers_end:icrc_start - pad_count]
    if pmtu is not None:
        _check_payload_size(len(payload), info, name, pmtu)
    return RocePacket(addressing, bth, payload=payload, **headers)


@dataclass(frozen=True)
class Segment:
    """One packet of a message: its opcode and the slice of the message it carries."""
    opcode: Opcode
    offset: int
    length: int


def check_pmtu(pmtu: int) -> None:
    if pmtu not in PMTUS:
        raise ValueError(f"PMTU {pmtu} is not one of {PMTUS}")


def packet_count(length: int, pmtu: int) -> int:
    """Packets (and so PSNs) a message of `length` bytes takes; a zero-length message still
    takes one."""
    return max(1, -(-length // pmtu))


def segment_message(operation: Operation, length: int, pmtu: int, with_immediate: bool = False) -> list[Segment]:
    """The packets of a SEND or RDMA WRITE message, or of an RDMA READ response, of `length`
    bytes: FIRST and MIDDLE carry exactly `pmtu` bytes, LAST the rest (1..pmtu), ONLY 0..pmtu.
    The immediate, if any, rides on the LAST or ONLY packet."""
    check_pmtu(pmtu)
    if operation not in (Operation.SEND, Operation.RDMA_WRITE, Operation.RDMA_READ_RESPONSE):
        raise ValueError(f"{operation.name} is not a segmented message")
    if not 0 <= length <= MAX_MESSAGE_BYTES:
        raise ValueError(f"message length {length} outside 0..2^31")
    count = packet_count(length, pmtu)
    if count == 1:
        return [Segment(opcode_for(operation, Position.ONLY, with_immediate), 0, length)]
    segments = [Segment(opcode_for(operation, Position.FIRST), 0, pmtu)]
    segments += [Segment(opcode_for(operation, Position.MIDDLE), index * pmtu, pmtu) for index in range(1, count - 1)]
    last_offset = (count - 1) * pmtu
    segments.append(Segment(opcode_for(operation, Position.LAST, with_immediate), last_offset, length - last_offset))
    return segments


def psn_add(psn: int, count: int) -> int:
    return (psn + count) % PSN_MODULUS


def psn_compare(a: int, b: int) -> int:
    """The signed distance from b to a on the 24-bit PSN circle, in [-2^23, 2^23): negative when
    a is before b, 0 when equal, positive when after. Same sign as rxe's (int32)((a - b) << 8),
    which also calls a PSN exactly 2^23 away 'before'."""
    return (a - b + PSN_HALF_WINDOW) % PSN_MODULUS - PSN_HALF_WINDOW
