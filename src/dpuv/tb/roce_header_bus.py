# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The RDMA engine's packet-header bus (`s_hdr_*` into roce_tx_builder, `m_hdr_*` out of the
receive parser) as src/dpuv/models/roce_packet.py values, for cocotb testbenches."""

from __future__ import annotations

import ipaddress

from dpuv.models.roce_packet import AETH, BTH, OPCODE_INFO, RETH, Addressing, AtomicAckETH, AtomicETH, ImmDt, RocePacket
from dpuv.tb.testbench import handshake

# The opcodes whose headers this bus has fields for, and so the ones the engine's parser and
# builder handle (a CNP's reserved bytes are zeros the builder writes): every one the model knows
BUS_OPCODES = tuple(sorted(OPCODE_INFO))


def _mac_number(mac: str) -> int:
    return int(mac.replace(":", ""), 16)


def _mac_text(number: int) -> str:
    return ":".join(f"{(number >> shift) & 0xFF:02x}" for shift in range(40, -8, -8))


def fields_of(packet: RocePacket) -> dict[str, int]:
    """Bus field values (without the prefix) that describe `packet`; absent headers read 0. An
    AtomicETH's address and R_Key ride on the RETH's fields (where a RETH has them on the wire)."""
    address, bth = packet.addressing, packet.bth
    addressed = packet.reth or packet.atomic_eth
    return {
        "eth_dest_mac": _mac_number(address.destination_mac),
        "eth_src_mac": _mac_number(address.source_mac),
        "ip_source": int(ipaddress.IPv4Address(address.source_ip)),
        "ip_dest": int(ipaddress.IPv4Address(address.destination_ip)),
        "ip_tos": address.tos,
        "ip_ttl": address.ttl,
        "udp_source_port": address.udp_source_port,
        "bth_opcode": bth.opcode,
        "bth_solicited": int(bth.solicited),
        "bth_migreq": int(bth.migration),
        "bth_pkey": bth.pkey,
        "bth_becn": int(bth.becn),
        "bth_dest_qp": bth.dest_qp,
        "bth_ack_req": int(bth.ack_req),
        "bth_psn": bth.psn,
        "reth_va": addressed.virtual_address if addressed else 0,
        "reth_rkey": addressed.rkey if addressed else 0,
        "reth_length": packet.reth.dma_length if packet.reth else 0,
        "aeth_syndrome": packet.aeth.syndrome if packet.aeth else 0,
        "aeth_msn": packet.aeth.msn if packet.aeth else 0,
        "immdt": packet.immdt.value if packet.immdt else 0,
        "atomic_swap_add": packet.atomic_eth.swap_add if packet.atomic_eth else 0,
        "atomic_compare": packet.atomic_eth.compare if packet.atomic_eth else 0,
        "atomic_original": packet.atomic_ack_eth.original if packet.atomic_ack_eth else 0,
        "payload_bytes": len(packet.payload),
    }


def packet_of(fields: dict[str, int], payload: bytes) -> RocePacket:
    """The packet a header bus describes (the inverse of fields_of, given the opcode's headers)."""
    from dpuv.models.roce_packet import opcode_info

    info = opcode_info(fields["bth_opcode"])
    return RocePacket(
        Addressing(_mac_text(fields["eth_src_mac"]), _mac_text(fields["eth_dest_mac"]),
                   str(ipaddress.IPv4Address(fields["ip_source"])), str(ipaddress.IPv4Address(fields["ip_dest"])),
                   fields["udp_source_port"], fields["ip_tos"], fields["ip_ttl"]),
        BTH(fields["bth_opcode"], fields["bth_dest_qp"], fields["bth_psn"], bool(fields["bth_ack_req"]),
            bool(fields["bth_solicited"]), bool(fields["bth_migreq"]), fields["bth_pkey"],
            bool(fields.get("bth_fecn", 0)), bool(fields.get("bth_becn", 0))),
        RETH(fields["reth_va"], fields["reth_rkey"], fields["reth_length"]) if info.has_reth else None,
        AETH(fields["aeth_syndrome"], fields["aeth_msn"]) if info.has_aeth else None,
        ImmDt(fields["immdt"]) if info.has_immdt else None,
        payload,
        AtomicETH(fields["reth_va"], fields["reth_rkey"], fields["atomic_swap_add"], fields["atomic_compare"])
        if info.has_atomic_eth else None,
        AtomicAckETH(fields["atomic_original"]) if info.has_atomic_ack_eth else None,
    )


class HeaderSource:
    """Drives a `<prefix>_*` header bus with valid/ready, one packet per handshake."""

    def __init__(self, dut, clock, prefix: str = "s_hdr"):
        self.dut, self.clock, self.prefix = dut, clock, prefix
        getattr(dut, f"{prefix}_valid").value = 0

    async def send(self, packet: RocePacket) -> None:
        for name, value in fields_of(packet).items():
            getattr(self.dut, f"{self.prefix}_{name}").value = value
        await handshake(self.clock, getattr(self.dut, f"{self.prefix}_valid"), getattr(self.dut, f"{self.prefix}_ready"))
