# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The virtual board: the board top in simulation with its UART bridged to a TCP port, for
`dpuv bringup`. Bytes from the client become UART bit frames on the uart_rx pin; bit frames
on uart_tx go back to the client, as a USB serial adapter would move them.

It serves one client, then ends when the client disconnects, or when nothing has come or gone
for DPUV_BOARD_IDLE_SECONDS of wall time (so it always stops by itself).
"""

import os
import queue
import socket
import threading
import time
from pathlib import Path

import cocotb
from cocotb.triggers import ClockCycles

from dpuv.tb.uart_transport import CocotbUartTransport
from dpuv.tb.testbench import start_clock_and_reset

POLL_CYCLES = 16


class SocketBridge:
    """Accepts one TCP client on 127.0.0.1 and moves bytes through two queues."""

    def __init__(self, port: int, idle_seconds: float):
        self.listener = socket.create_server(("127.0.0.1", port))
        self.listener.settimeout(idle_seconds)
        self.port = self.listener.getsockname()[1]
        self.inbound: queue.Queue[bytes] = queue.Queue()
        self.client = None
        self.closed = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        try:
            self.client, _ = self.listener.accept()
            while data := self.client.recv(4096):
                self.inbound.put(data)
        except OSError:
            pass
        finally:
            self.closed.set()

    def send(self, data: bytes):
        if self.client is not None:
            try:
                self.client.sendall(data)
            except OSError:
                self.closed.set()

    def close(self):
        for endpoint in (self.client, self.listener):
            if endpoint is not None:
                endpoint.close()


@cocotb.test()
async def serve_the_link_on_tcp(dut):
    idle_seconds = float(os.environ.get("DPUV_BOARD_IDLE_SECONDS", "300"))
    bridge = SocketBridge(int(os.environ.get("DPUV_BOARD_PORT", "0")), idle_seconds)
    port_file = os.environ.get("DPUV_BOARD_PORT_FILE")
    transport = CocotbUartTransport.at_board_pins(dut)
    await start_clock_and_reset(dut.clk, dut.rst_n, active_low=True)
    await ClockCycles(dut.clk, 8)  # board_top's own reset stretch
    if port_file:
        Path(port_file).write_text(str(bridge.port))
    dut._log.info("virtual board on 127.0.0.1:%d; run: dpuv bringup --link socket://127.0.0.1:%d", bridge.port, bridge.port)

    last_activity = time.monotonic()
    while not bridge.closed.is_set() and time.monotonic() - last_activity < idle_seconds:
        await ClockCycles(dut.clk, POLL_CYCLES)
        moved = False
        while not bridge.inbound.empty():
            await transport.send(bridge.inbound.get_nowait())
            moved = True
        outbound = bytes(transport.received)
        transport.received.clear()
        if outbound:
            bridge.send(bytes(outbound))
            moved = True
        if moved:
            last_activity = time.monotonic()
    bridge.close()
    dut._log.info("virtual board stopped (%s)", "client left" if bridge.closed.is_set() else "idle")
