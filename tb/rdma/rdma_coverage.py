# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The RDMA engine's functional coverage, sampled from the frames its benches' wire carries both
ways (rdma_engine_bench.TB): which messages crossed it at which length, PMTU and impairment,
which acknowledgements and NAKs, which retransmissions, which malformed frames the engine was
handed, and how the peers' work requests completed.

"to_engine" is the engine as responder (a peer's requests, the engine's answers are
"from_engine"); the engine's own requests travel "from_engine". A message is classed by its
length against the PMTU of the QP it travels on: zero, below the PMTU, exactly one PMTU, or more
than one packet."""

from __future__ import annotations

from dpuv.models.roce_packet import (AckType, MalformedCause, MalformedFrame, Opcode, Operation, Position,
                                     RocePacket, parse_frame)
from dpuv.models.roce_qp import Completion, CompletionStatus
from dpuv.models.roce_wire import WireConfig
from dpuv.tb.functional_coverage import Covergroup

DIRECTIONS = ("to_engine", "from_engine")
OPERATIONS = ("send", "send_with_immediate", "write", "write_with_immediate", "read", "compare_swap", "fetch_add")
LENGTHS = ("zero", "below_pmtu", "one_pmtu", "multi_packet")
PMTUS = ("256", "512", "1024", "2048", "4096")
IMPAIRMENTS = ("none", "loss", "duplicate", "reorder", "corrupt")
# AETH syndromes: an ACK, an RNR NAK, and the four RC NAK codes (IBA 9.7.5.2.8)
ACKNOWLEDGEMENTS = ("ack", "rnr_nak", "nak_psn_sequence_error", "nak_invalid_request", "nak_remote_access_error",
                    "nak_remote_operational_error")
_NAK_CODES = dict(zip(range(4), ACKNOWLEDGEMENTS[2:]))

MESSAGES = Covergroup("rdma.messages", {
    "direction": DIRECTIONS, "operation": OPERATIONS, "length": LENGTHS, "pmtu": PMTUS, "impairment": IMPAIRMENTS,
}, crosses={
    "operation_x_length": ("direction", "operation", "length"),
    "length_x_pmtu": ("length", "pmtu"),
    "operation_x_impairment": ("direction", "operation", "impairment"),
})
ACKNOWLEDGEMENT_GROUP = Covergroup("rdma.acknowledgements", {"direction": DIRECTIONS, "kind": ACKNOWLEDGEMENTS},
                                   crosses={"direction_x_kind": ("direction", "kind")})
RETRANSMISSIONS = Covergroup("rdma.retransmissions", {
    "direction": DIRECTIONS, "transmission": ("first", "retransmission")},
    crosses={"direction_x_transmission": ("direction", "transmission")})
MALFORMED = Covergroup("rdma.malformed", {"cause": tuple(cause.value for cause in MalformedCause)})
COMPLETIONS = Covergroup("rdma.peer_completions", {"status": tuple(status.value for status in CompletionStatus)})


def impairments(wire: WireConfig) -> list[str]:
    """The impairments a wire applies to its frames (each one is a bin the frame counts in)."""
    active = [name for name, impairment in (("loss", wire.drop), ("duplicate", wire.duplicate),
                                            ("reorder", wire.reorder), ("corrupt", wire.corrupt)) if impairment.rate]
    return active or ["none"]


def length_class(length: int, pmtu: int) -> str:
    if length == 0:
        return "zero"
    if length < pmtu:
        return "below_pmtu"
    return "one_pmtu" if length == pmtu else "multi_packet"


class WireCoverage:
    """Samples every frame of one direction of the wire; a multi-packet message counts once, at
    its last packet (a WRITE's immediate, and a SEND's length, are known only there)."""

    def __init__(self, direction: str, wire: WireConfig):
        self.direction = direction
        self.impairments = impairments(wire)
        # Per destination QP: the open message's operation and bytes so far (from its FIRST)
        self._open: dict[int, tuple[str, int]] = {}
        self._sent_psns: set[tuple[int, int, int]] = set()

    def frame(self, frame: bytes, pmtu: int) -> None:
        """A frame as it reached the engine: parsed at the QP's PMTU, or counted by why not."""
        try:
            packet = parse_frame(frame, pmtu)
        except MalformedFrame as error:
            MALFORMED.sample(cause=error.cause.value)
            return
        self.packet(packet, pmtu)

    def packet(self, packet: RocePacket, pmtu: int) -> None:
        info = packet.info
        if packet.aeth is not None and packet.bth.opcode in (Opcode.ACKNOWLEDGE, Opcode.ATOMIC_ACKNOWLEDGE):
            ack_type = packet.aeth.ack_type
            kind = {AckType.ACK: "ack", AckType.RNR_NAK: "rnr_nak"}.get(ack_type) or _NAK_CODES.get(packet.aeth.value)
            if kind:
                ACKNOWLEDGEMENT_GROUP.sample(direction=self.direction, kind=kind)
        if not info.is_request:
            return
        key = (packet.bth.dest_qp, packet.bth.psn, packet.bth.opcode)
        RETRANSMISSIONS.sample(direction=self.direction,
                               transmission="retransmission" if key in self._sent_psns else "first")
        self._sent_psns.add(key)
        message = self._message(packet)
        if message is not None:
            operation, length = message
            for impairment in self.impairments:
                MESSAGES.sample(direction=self.direction, operation=operation, length=length_class(length, pmtu),
                                pmtu=str(pmtu), impairment=impairment)

    def _message(self, packet: RocePacket) -> tuple[str, int] | None:
        """The finished message this packet ends, as (operation, length), or None."""
        info = packet.info
        operation = info.operation
        if operation == Operation.RDMA_READ_REQUEST:
            return "read", packet.reth.dma_length
        if operation in (Operation.COMPARE_SWAP, Operation.FETCH_ADD):
            return operation.value, 8
        qpn = packet.bth.dest_qp
        base = "send" if operation == Operation.SEND else "write"
        if info.position in (Position.FIRST, Position.ONLY):
            # A WRITE's length is its RETH's, a SEND's the sum of its payloads
            self._open[qpn] = (base, packet.reth.dma_length if packet.reth else len(packet.payload))
        elif qpn in self._open and base == "send":
            self._open[qpn] = (base, self._open[qpn][1] + len(packet.payload))
        if not info.ends_message or qpn not in self._open:
            return None
        base, length = self._open.pop(qpn)
        return (f"{base}_with_immediate" if info.has_immdt else base), length


def completions(taken: list[Completion]) -> None:
    for completion in taken:
        COMPLETIONS.sample(status=completion.status.value)
