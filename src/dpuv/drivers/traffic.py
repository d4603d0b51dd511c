# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Driver model of the traffic generator and checker (rtl/common/traffic_block): run the built-in
self-test of a stream path and read back what the checker found.

Only the register access interface is used, so the same run works under cocotb, over the board
link against a virtual board, and against a real board.
"""

from __future__ import annotations

from dataclasses import dataclass

from dpuv.regs.access import BlockWindow
from dpuv.regs.maps import traffic_block

BLOCK = traffic_block.BLOCK
COUNTERS = ("FRAMES_SENT", "FRAMES_RECEIVED", "FRAMES_BAD", "SEQUENCE_ERRORS", "BEATS_RECEIVED",
            "BAD_BEATS", "CYCLES")


@dataclass
class TrafficResult:
    frames: int
    frame_beats: int
    data_bytes: int
    done: bool
    counters: dict[str, int]

    @property
    def clean(self) -> bool:
        """Every frame sent came back once, in order, with every beat as the pattern says."""
        c = self.counters
        return (self.done and c["FRAMES_SENT"] == self.frames and c["FRAMES_RECEIVED"] == self.frames
                and c["FRAMES_BAD"] == 0 and c["SEQUENCE_ERRORS"] == 0 and c["BAD_BEATS"] == 0
                and c["BEATS_RECEIVED"] == self.frames * self.frame_beats)

    @property
    def utilisation(self) -> float:
        """Beats checked per cycle from the first beat sent to the last beat checked."""
        return self.counters["BEATS_RECEIVED"] / self.counters["CYCLES"] if self.counters["CYCLES"] else 0.0

    @property
    def bytes_checked(self) -> int:
        return self.counters["BEATS_RECEIVED"] * self.data_bytes

    def summary(self) -> str:
        c = self.counters
        return (f"{c['FRAMES_RECEIVED']}/{self.frames} frames of {self.frame_beats} beats back, "
                f"{c['FRAMES_BAD']} bad, {c['SEQUENCE_ERRORS']} out of sequence, {self.bytes_checked} bytes checked, "
                f"utilisation {self.utilisation:.4f} over {c['CYCLES']} cycles")


async def run(window: BlockWindow, frames: int, frame_beats: int, seed: int, gap_cycles: int = 0,
              inject_error: bool = False, timeout_cycles: int | None = None) -> TrafficResult:
    """Send `frames` frames through the path and wait until they are checked (or the timeout)."""
    await window.write_register("FRAMES", frames)
    await window.write_register("FRAME_BEATS", frame_beats)
    await window.write_register("SEED", seed)
    await window.write_register("GAP", gap_cycles)
    ctrl = BLOCK["CTRL"]
    if inject_error:  # armed before the start: over a slow link a short run ends before a later write lands
        await window.write_register("CTRL", ctrl.field("inject_error").insert(0, 1))
    await window.write_register("CTRL", ctrl.field("start").insert(0, 1))
    budget = timeout_cycles or 64 * frames * (frame_beats + gap_cycles) + 10_000
    done_field = BLOCK["STATUS"].field("done")
    waited = 0
    while waited < budget and not done_field.extract(await window.read_register("STATUS")):
        await window.bus.cycles(256)
        waited += 256
    await window.write_register("CTRL", ctrl.field("stop").insert(0, 1))
    return await result(window, frames, frame_beats)


async def result(window: BlockWindow, frames: int, frame_beats: int) -> TrafficResult:
    status = await window.read_register("STATUS")
    counters = {name: await window.read_register(name) for name in COUNTERS}
    return TrafficResult(frames, frame_beats, BLOCK["CAPS"].field("data_bytes").extract(await window.read_register("CAPS")),
                         bool(BLOCK["STATUS"].field("done").extract(status)), counters)
