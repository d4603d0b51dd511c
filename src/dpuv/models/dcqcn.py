# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""DCQCN, RoCEv2's ECN-based rate control, as docs/reference/roce.md (Congestion control) sums
it up from the DCQCN paper (Zhu et al., SIGCOMM 2015) and the parameters Linux mlx5 exposes.

Notification point (NP, the receiver): a packet for one of its QPs arriving with ECN CE (IPv4
TOS bits 1:0 = 11) makes it send a CNP to that QP's peer, at most one per QP every
`min_time_between_cnps_ns`; marked packets inside that interval send nothing.

Reaction point (RP, the sender), per QP: current rate RC, target rate RT, alpha.
- On a CNP: RT = RC, RC = RC x (1 - alpha / 2), alpha = (1 - g) x alpha + g; the rate-increase
  timer, the byte counter and both stage counts restart.
- Every `alpha_update_period_ns` without a CNP: alpha = (1 - g) x alpha.
- Every `rate_increase_period_ns` (the time stage) and every `byte_counter_bytes` sent (the
  byte stage) after a CNP, a rate increase, chosen by the stage counts after counting it:
  fast recovery while both are at most F (RC = (RT + RC) / 2), additive increase when one of
  them is past F (RT += R_AI, then the same RC step), hyper increase when both are
  (RT += R_HAI, then the same). RT and RC never pass the line rate, RC never falls below the
  minimum rate; once both are back at the line rate the increase timer stops.

The arithmetic is the integer arithmetic a rate register would do, so that a bench can compare
the RTL with it exactly: rates are whole Mb/s (mlx5's unit for its rate parameters), alpha is a
fixed-point fraction with `alpha_fraction_bits` bits (mlx5 uses 10). Products round down; the
halving steps towards RT round up, so that RC reaches RT instead of stopping one Mb/s short.
Time is the caller's integer nanoseconds, never a clock: on_cnp(now), on_bytes_sent(n, now) and
advance(now) first run every timer due at or before `now` (at the same instant the alpha update
before the rate increase), so a run is a pure function of its calls.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import Enum

from dpuv.models.roce_packet import (
    ECN_CE, Addressing, MalformedFrame, Operation, RocePacket, build_frame, cnp_packet, parse_frame,
)


@dataclass(frozen=True)
class DcqcnParameters:
    """Every DCQCN parameter, the paper's name and mlx5's beside each (docs/reference/roce.md,
    DCQCN parameters, says where each default comes from)."""
    line_rate_mbps: int = 100_000            # the rate RC and RT start at and return to (mlx5 rp_max_rate 0: line rate)
    min_rate_mbps: int = 1                   # RC floor (mlx5 rp_min_rate)
    alpha_fraction_bits: int = 10            # alpha is in units of 2^-bits (mlx5: 10 fraction bits)
    initial_alpha: int = 1 << 10             # alpha before the first CNP: 1.0 (mlx5 rp_initial_alpha_value)
    alpha_gain: int = 4                      # g in units of 2^-bits: 4/1024 = 1/256, the paper's g (mlx5 rp_dce_tcp_g)
    alpha_update_period_ns: int = 55_000     # K (mlx5 rp_dce_tcp_rtt)
    rate_increase_period_ns: int = 55_000    # T, the rate-increase timer (mlx5 rp_time_reset)
    byte_counter_bytes: int = 10 * 1024 * 1024  # B, bytes sent per byte stage (mlx5 rp_byte_reset)
    fast_recovery_stages: int = 5            # F (mlx5 rp_threshold)
    additive_increase_mbps: int = 5          # R_AI (mlx5 rp_ai_rate)
    hyper_increase_mbps: int = 50            # R_HAI (mlx5 rp_hai_rate)
    min_time_between_cnps_ns: int = 50_000   # N, the NP's CNP interval per QP (mlx5 np_min_time_between_cnps)

    def __post_init__(self) -> None:
        if not 1 <= self.alpha_fraction_bits <= 32:
            raise ValueError("alpha_fraction_bits must be 1..32")
        if not (0 <= self.initial_alpha <= self.alpha_one and 0 < self.alpha_gain <= self.alpha_one):
            raise ValueError("initial_alpha must be 0..1 and alpha_gain (g) in (0, 1], in units of 2^-bits")
        if not 1 <= self.min_rate_mbps <= self.line_rate_mbps:
            raise ValueError("need 1 <= min_rate_mbps <= line_rate_mbps")
        for name in ("alpha_update_period_ns", "rate_increase_period_ns", "byte_counter_bytes"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive")
        if self.fast_recovery_stages < 0 or self.additive_increase_mbps < 0 or self.hyper_increase_mbps < 0:
            raise ValueError("F, R_AI and R_HAI must not be negative")
        if self.min_time_between_cnps_ns < 0:
            raise ValueError("min_time_between_cnps_ns must not be negative")

    @property
    def alpha_one(self) -> int:
        """alpha = 1.0 in its fixed-point units."""
        return 1 << self.alpha_fraction_bits


class RateStage(Enum):
    UNTHROTTLED = "unthrottled"            # no CNP yet, or recovered to the line rate
    FAST_RECOVERY = "fast_recovery"
    ADDITIVE_INCREASE = "additive_increase"
    HYPER_INCREASE = "hyper_increase"


class ReactionPoint:
    """One QP's sending rate under DCQCN."""

    def __init__(self, parameters: DcqcnParameters = DcqcnParameters()):
        self.parameters = parameters
        self.current_rate_mbps = parameters.line_rate_mbps
        self.target_rate_mbps = parameters.line_rate_mbps
        self.alpha = parameters.initial_alpha
        self.time_stage = 0
        self.byte_stage = 0
        self.stage = RateStage.UNTHROTTLED
        self.cnps_received = 0
        self._now_ns = 0
        self._alpha_deadline: int | None = None
        self._increase_deadline: int | None = None
        self._bytes_toward_stage = 0

    @property
    def alpha_fraction(self) -> float:
        """alpha as a number in [0, 1], for reading; the model computes with the integer."""
        return self.alpha / self.parameters.alpha_one

    def next_event_ns(self) -> int | None:
        """When a timer next changes alpha or the rate, or None."""
        deadlines = [deadline for deadline in (self._alpha_deadline, self._increase_deadline) if deadline is not None]
        return min(deadlines, default=None)

    def advance(self, now_ns: int) -> None:
        """Run every timer due at or before now_ns, in time order."""
        if now_ns < self._now_ns:
            raise ValueError(f"time went back from {self._now_ns} to {now_ns} ns")
        self._now_ns = now_ns
        while (deadline := self.next_event_ns()) is not None and deadline <= now_ns:
            if self._alpha_deadline == deadline:
                self._decay_alpha()
            if self._increase_deadline == deadline:
                self._increase_deadline += self.parameters.rate_increase_period_ns
                self.time_stage += 1
                self._increase_rate()

    def on_cnp(self, now_ns: int) -> None:
        self.advance(now_ns)
        p = self.parameters
        self.cnps_received += 1
        self.target_rate_mbps = self.current_rate_mbps
        cut = (self.current_rate_mbps * self.alpha) >> (p.alpha_fraction_bits + 1)
        self.current_rate_mbps = max(p.min_rate_mbps, self.current_rate_mbps - cut)
        self.alpha = (((p.alpha_one - p.alpha_gain) * self.alpha) >> p.alpha_fraction_bits) + p.alpha_gain
        self.time_stage = self.byte_stage = 0
        self._bytes_toward_stage = 0
        self.stage = RateStage.FAST_RECOVERY
        self._alpha_deadline = now_ns + p.alpha_update_period_ns
        self._increase_deadline = now_ns + p.rate_increase_period_ns

    def on_bytes_sent(self, byte_count: int, now_ns: int) -> None:
        """`byte_count` bytes left at now_ns; each `byte_counter_bytes` of them since the last
        CNP or byte stage is a byte stage."""
        if byte_count < 0:
            raise ValueError("a negative byte count")
        self.advance(now_ns)
        if self.stage is RateStage.UNTHROTTLED:
            return
        self._bytes_toward_stage += byte_count
        stage_bytes = self.parameters.byte_counter_bytes
        while self._bytes_toward_stage >= stage_bytes and self.stage is not RateStage.UNTHROTTLED:
            self._bytes_toward_stage -= stage_bytes
            self.byte_stage += 1
            self._increase_rate()

    def _decay_alpha(self) -> None:
        p = self.parameters
        self.alpha = ((p.alpha_one - p.alpha_gain) * self.alpha) >> p.alpha_fraction_bits
        # At zero it can fall no further: the timer has nothing left to do until the next CNP
        self._alpha_deadline = self._alpha_deadline + p.alpha_update_period_ns if self.alpha else None

    def _increase_rate(self) -> None:
        p = self.parameters
        stages = self.parameters.fast_recovery_stages
        if max(self.time_stage, self.byte_stage) <= stages:
            self.stage = RateStage.FAST_RECOVERY
        elif min(self.time_stage, self.byte_stage) <= stages:
            self.stage = RateStage.ADDITIVE_INCREASE
            self.target_rate_mbps = min(p.line_rate_mbps, self.target_rate_mbps + p.additive_increase_mbps)
        else:
            self.stage = RateStage.HYPER_INCREASE
            self.target_rate_mbps = min(p.line_rate_mbps, self.target_rate_mbps + p.hyper_increase_mbps)
        self.current_rate_mbps = (self.target_rate_mbps + self.current_rate_mbps + 1) // 2
        if self.current_rate_mbps == p.line_rate_mbps:
            self.stage = RateStage.UNTHROTTLED
            self._increase_deadline = None
            self.time_stage = self.byte_stage = 0


@dataclass(frozen=True)
class CnpPath:
    """Where a QP's CNPs go: its peer's QP number and the addressing of the frame that carries
    them (this node to the peer)."""
    remote_qpn: int
    addressing: Addressing
    pkey: int = 0xFFFF


class NotificationPoint:
    """The receiving side: CE-marked packets in, CNPs out, paced per QP."""

    def __init__(self, parameters: DcqcnParameters = DcqcnParameters()):
        self.parameters = parameters
        self.counters: Counter[str] = Counter()   # ce_marked, cnps_sent, cnps_suppressed, unknown_qp, malformed
        self._paths: dict[int, CnpPath] = {}
        self._last_cnp_ns: dict[int, int] = {}

    def add_qp(self, local_qpn: int, remote_qpn: int, addressing: Addressing, pkey: int = 0xFFFF) -> None:
        self._paths[local_qpn] = CnpPath(remote_qpn, addressing, pkey)

    def on_frame(self, frame: bytes, now_ns: int) -> bytes | None:
        """The CNP frame to send for a received frame, or None."""
        try:
            packet = parse_frame(frame)
        except MalformedFrame:
            self.counters["malformed"] += 1
            return None
        return self.on_packet(packet, now_ns)

    def on_packet(self, packet: RocePacket, now_ns: int) -> bytes | None:
        # A CNP itself is never answered, marked or not
        if packet.ecn != ECN_CE or packet.info.operation is Operation.CNP:
            return None
        self.counters["ce_marked"] += 1
        qpn = packet.bth.dest_qp
        path = self._paths.get(qpn)
        if path is None:
            self.counters["unknown_qp"] += 1
            return None
        last = self._last_cnp_ns.get(qpn)
        if last is not None and now_ns - last < self.parameters.min_time_between_cnps_ns:
            self.counters["cnps_suppressed"] += 1
            return None
        self._last_cnp_ns[qpn] = now_ns
        self.counters["cnps_sent"] += 1
        return build_frame(cnp_packet(path.addressing, path.remote_qpn, path.pkey))
