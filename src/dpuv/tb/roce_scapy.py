# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""scapy as an independent RoCEv2 decoder: the extension headers scapy 2.8.0's contrib/roce.py
lacks, a decode of a frame into plain values for comparison with src/dpuv/models/roce_packet.py, and pcap
writing for tshark or Wireshark.

scapy 2.8.0 binds AETH only to ACKNOWLEDGE and has no RETH, ImmDt, AtomicETH or AtomicAckETH,
so without this module a READ response, a WRITE, a READ request or an atomic decodes as BTH plus
raw bytes. Importing the module adds the bindings below, once, to scapy's global layer registry.
The AtomicAckETH after an ATOMIC_ACKNOWLEDGE's AETH cannot be bound (the choice depends on the
BTH two layers down), so decode reads it from the AETH's payload.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from scapy.contrib.roce import AETH, BTH, CNPPadding
from scapy.data import DLT_EN10MB
from scapy.fields import IntField, XIntField, XLongField
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether
from scapy.packet import Packet, Raw, bind_layers
from scapy.utils import RawPcapWriter

# RC opcodes, named as in docs/reference/roce.md (Reliable Connection opcode table)
RDMA_WRITE_FIRST = 0x06
RDMA_WRITE_ONLY = 0x0A
RDMA_WRITE_ONLY_WITH_IMMEDIATE = 0x0B
RDMA_READ_REQUEST = 0x0C
SEND_LAST_WITH_IMMEDIATE = 0x03
SEND_ONLY_WITH_IMMEDIATE = 0x05
RDMA_WRITE_LAST_WITH_IMMEDIATE = 0x09
RDMA_READ_RESPONSE_FIRST = 0x0D
RDMA_READ_RESPONSE_LAST = 0x0F
RDMA_READ_RESPONSE_ONLY = 0x10
ATOMIC_ACKNOWLEDGE = 0x12
COMPARE_SWAP = 0x13
FETCH_ADD = 0x14


class ImmDt(Packet):
    name = "ImmDt"
    fields_desc = [XIntField("imm", 0)]


class RETH(Packet):
    name = "RETH"
    fields_desc = [
        XLongField("va", 0),
        XIntField("rkey", 0),
        IntField("dlen", 0),
    ]

    def guess_payload_class(self, payload: bytes) -> type[Packet]:
        # Only WRITE_ONLY_WITH_IMMEDIATE carries both; the choice depends on the BTH below, which
        # bind_layers cannot express
        bth = self.underlayer
        if isinstance(bth, BTH) and bth.opcode == RDMA_WRITE_ONLY_WITH_IMMEDIATE:
            return ImmDt
        return Raw


class AtomicETH(Packet):
    name = "AtomicETH"
    fields_desc = [
        XLongField("va", 0),
        XIntField("rkey", 0),
        XLongField("swap_add", 0),
        XLongField("compare", 0),
    ]


class AtomicAckETH(Packet):
    name = "AtomicAckETH"
    fields_desc = [XLongField("orig", 0)]  # not "original": scapy keeps a packet's raw bytes there


for _opcode in (RDMA_WRITE_FIRST, RDMA_WRITE_ONLY, RDMA_WRITE_ONLY_WITH_IMMEDIATE, RDMA_READ_REQUEST):
    bind_layers(BTH, RETH, opcode=_opcode)
for _opcode in (SEND_LAST_WITH_IMMEDIATE, SEND_ONLY_WITH_IMMEDIATE, RDMA_WRITE_LAST_WITH_IMMEDIATE):
    bind_layers(BTH, ImmDt, opcode=_opcode)
# READ_RESPONSE_MIDDLE has no AETH
for _opcode in (RDMA_READ_RESPONSE_FIRST, RDMA_READ_RESPONSE_LAST, RDMA_READ_RESPONSE_ONLY, ATOMIC_ACKNOWLEDGE):
    bind_layers(BTH, AETH, opcode=_opcode)
for _opcode in (COMPARE_SWAP, FETCH_ADD):
    bind_layers(BTH, AtomicETH, opcode=_opcode)


def _icrc_value(sent_order: bytes) -> int:
    """ICRC bytes go least significant first."""
    return int.from_bytes(sent_order, "little")


def decode(frame: bytes) -> dict:
    """scapy's reading of a RoCEv2 frame (no FCS) as plain values. `payload` excludes the pad;
    `icrc_sent` is the value in the frame and `icrc_computed` scapy's own computation."""
    ip_total_length = int.from_bytes(frame[16:18], "big")
    # Cut the MAC's minimum-size padding: scapy would count it into the ICRC
    packet = Ether(frame[:14 + ip_total_length])
    bth = packet[BTH]
    reth, aeth, immdt = packet.getlayer(RETH), packet.getlayer(AETH), packet.getlayer(ImmDt)
    atomic_eth, cnp_padding = packet.getlayer(AtomicETH), packet.getlayer(CNPPadding)
    atomic_ack_eth = None
    if aeth is not None and bth.opcode == ATOMIC_ACKNOWLEDGE:
        atomic_ack_eth = AtomicAckETH(bytes(aeth.payload))
    innermost = immdt or atomic_ack_eth or aeth or atomic_eth or reth or cnp_padding or bth
    padded_payload = bytes(innermost.payload)
    return {
        "source_mac": packet[Ether].src,
        "destination_mac": packet[Ether].dst,
        "source_ip": packet[IP].src,
        "destination_ip": packet[IP].dst,
        "tos": packet[IP].tos,
        "ttl": packet[IP].ttl,
        "dont_fragment": bool(packet[IP].flags.DF),
        "udp_source_port": packet[UDP].sport,
        "udp_destination_port": packet[UDP].dport,
        "udp_checksum": packet[UDP].chksum,
        "opcode": bth.opcode,
        "opcode_name": bth.get_field("opcode").i2s.get(bth.opcode),
        "solicited": bool(bth.solicited),
        "migration": bool(bth.migreq),
        "pad": bth.padcount,
        "version": bth.version,
        "pkey": bth.pkey,
        "fecn": bool(bth.fecn),
        "becn": bool(bth.becn),
        "dest_qp": bth.dqpn,
        "ack_req": bool(bth.ackreq),
        "psn": bth.psn,
        "reth": None if reth is None else {"virtual_address": reth.va, "rkey": reth.rkey, "dma_length": reth.dlen},
        "aeth": None if aeth is None else {"syndrome": aeth.syndrome, "msn": aeth.msn},
        "imm": None if immdt is None else immdt.imm,
        "atomic_eth": None if atomic_eth is None else {"virtual_address": atomic_eth.va, "rkey": atomic_eth.rkey,
                                                       "swap_add": atomic_eth.swap_add, "compare": atomic_eth.compare},
        "atomic_original": None if atomic_ack_eth is None else atomic_ack_eth.orig,
        "cnp_padding": None if cnp_padding is None else bytes(cnp_padding)[:16],
        "payload": padded_payload[:len(padded_payload) - bth.padcount],
        # scapy reads the trailer as a big-endian word; turn it back into the bytes sent
        "icrc_sent": _icrc_value(bth.icrc.to_bytes(4, "big")),
        "icrc_computed": _icrc_value(bth.compute_icrc(None)),
    }


def write_pcap(path: str | Path, frames_with_timestamps: Iterable[tuple[bytes, int]], append: bool = False) -> None:
    """A pcap (LINKTYPE_ETHERNET, nanosecond timestamps as the models keep time) of
    (frame, time in ns) pairs; frames are written as given, without FCS. With append, the
    frames go after those already in the file."""
    with RawPcapWriter(str(path), linktype=DLT_EN10MB, nano=True, append=append) as writer:
        if not append:
            writer.write_header(None)
        for frame, time_ns in frames_with_timestamps:
            seconds, nanoseconds = divmod(time_ns, 1_000_000_000)
            writer.write_packet(frame, sec=seconds, usec=nanoseconds)
