# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""`make sim ... PCAP=file.pcap`: a bench with a network wire records every frame that crosses it.

The runner passes the path in DPUV_PCAP. The first test of a simulation starts the file and the
later ones add to it, so one run gives one capture that tshark or Wireshark decodes (RoCEv2 is
InfiniBand over UDP port 4791).
"""

from __future__ import annotations

import os
from pathlib import Path

from dpuv.tb.roce_scapy import write_pcap

_started: set[str] = set()


class WireCapture:
    """Frames with their simulated time; written out when the test is done with them."""

    def __init__(self):
        self.path = os.environ.get("DPUV_PCAP")
        self.frames: list[tuple[bytes, int]] = []

    def record(self, frame: bytes, time_ns: int) -> None:
        if self.path:
            self.frames.append((frame, time_ns))

    def save(self) -> None:
        if not self.path:
            return
        append = self.path in _started
        _started.add(self.path)
        Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        write_pcap(self.path, self.frames, append=append)
        self.frames.clear()
