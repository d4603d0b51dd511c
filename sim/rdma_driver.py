"""Driver model of the RDMA responder's registers (rtl/rdma/regs/rdma_responder.rdl): what host
software does to bring a QP up, register memory and read the counters. Only the register access
interface is used, so it runs the same in cocotb and against a board."""

from __future__ import annotations

import ipaddress

from dpuv.sim.regio import BlockWindow
from dpuv.sim.regmap import rdma_responder

BLOCK = rdma_responder.BLOCK
COUNTERS = ("RX_FRAMES", "RX_BYTES", "RX_FRAMES_GOOD", "TX_FRAMES", "TX_BYTES", "ACKS_SENT", "NAKS_SENT", "DUPLICATES",
            "SEQUENCE_DROPS", "UNKNOWN_QP_DROPS", "ACCESS_ERRORS", "INVALID_REQUESTS", "DROPS_ICRC", "DROPS_MALFORMED",
            "DROPS_OVERFLOW", "ACK_LATENCY_MIN", "ACK_LATENCY_MAX", "ACK_LATENCY_SUM", "ACK_LATENCY_COUNT")


def _mac(text: str) -> int:
    return int(text.replace(":", ""), 16)


async def set_up(window: BlockWindow, mac: str, ip: str, pmtu: int) -> None:
    await window.write_register("PMTU", pmtu)
    await window.write_register("LOCAL_MAC_LOW", _mac(mac) & 0xFFFFFFFF)
    await window.write_register("LOCAL_MAC_HIGH", _mac(mac) >> 32)
    await window.write_register("LOCAL_IP", int(ipaddress.IPv4Address(ip)))


async def create_qp(window: BlockWindow, qpn: int, remote_qpn: int, remote_mac: str, remote_ip: str,
                    udp_source_port: int, expected_psn: int, timeout_cycles: int = 10_000) -> None:
    """Bring QP `qpn` up (or reset it): the peer it answers and the first PSN it expects."""
    await window.poll("STATUS", BLOCK["STATUS"].field("qp_ready").extract, timeout_cycles)
    for name, value in (("QP_INDEX", qpn), ("QP_REMOTE_QPN", remote_qpn),
                        ("QP_REMOTE_MAC_LOW", _mac(remote_mac) & 0xFFFFFFFF), ("QP_REMOTE_MAC_HIGH", _mac(remote_mac) >> 32),
                        ("QP_REMOTE_IP", int(ipaddress.IPv4Address(remote_ip))),
                        ("QP_UDP_SOURCE_PORT", udp_source_port), ("QP_EXPECTED_PSN", expected_psn)):
        await window.write_register(name, value)
    ctrl = BLOCK["QP_CTRL"]
    await window.write_register("QP_CTRL", ctrl.field("commit").insert(ctrl.field("valid").insert(0, 1), 1))


async def register_region(window: BlockWindow, rkey: int, base: int, length: int,
                          remote_write: bool = True, remote_read: bool = True) -> None:
    """A region peers may reach with `rkey`; the key's low bits pick the table entry."""
    entries = BLOCK["CAPS"].field("mr_count").extract(await window.read_register("CAPS"))
    for name, value in (("MR_INDEX", rkey % entries), ("MR_RKEY", rkey), ("MR_BASE_LOW", base & 0xFFFFFFFF),
                        ("MR_BASE_HIGH", base >> 32), ("MR_LENGTH", length)):
        await window.write_register(name, value)
    ctrl = BLOCK["MR_CTRL"]
    value = ctrl.field("valid").insert(0, 1)
    value = ctrl.field("remote_write").insert(value, int(remote_write))
    value = ctrl.field("remote_read").insert(value, int(remote_read))
    await window.write_register("MR_CTRL", ctrl.field("commit").insert(value, 1))


async def read_counters(window: BlockWindow) -> dict[str, int]:
    return {name.lower(): await window.read_register(name) for name in COUNTERS}
