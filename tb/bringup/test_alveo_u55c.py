# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The Alveo U55C top as Vivado builds it, its two hard blocks replaced by models: cocotbext-pcie's
UltraScale+ PCIe model (attached to the dpuv_pcie instance) with a root complex as the host, and
the 100G MAC's model with its transceivers in near-end loopback. The host enumerates the card
and `dpuv bringup` runs over BAR0 as over `--link pci://`: the chain from the node's ID block,
the register self-test, an RDMA WRITE and READ from the node to itself out through the transmit
crossing (250 to 322 MHz), the MAC and back through the receive crossing, every byte checked,
and the node's counters against the targets."""

import io
import logging

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, Timer, with_timeout
from cocotbext.axi import AxiStreamBus
from cocotbext.pcie.core import RootComplex
from cocotbext.pcie.xilinx.us import UltraScalePlusPcieDevice

from dpuv.board import bringup
from dpuv.regs.pcie_bar import PcieBarAccess

BAR0_BYTES = 64 * 1024
# The MAC's user clock (322.27 MHz) and the board's 100 MHz clock; the core clock (250 MHz) is the
# PCIe model's user clock
MAC_PERIOD_NS = 3.104
BOARD_PERIOD_NS = 10.0
# A read waits behind every posted write sent before it (PCIe ordering), and the bring-up posts
# hundreds of 32-bit writes at a time (buffers filled, a completion ring zeroed), each a register
# access of about 25 cycles (100 ns): a millisecond, inside the completion timeout a PCIe host
# uses by default (50 us to 50 ms)
BAR_READ_TIMEOUT_NS = 1_000_000


class CardBench:
    def __init__(self, dut):
        self.dut = dut
        pcie = dut.pcie_inst
        completions = AxiStreamBus.from_prefix(pcie, "s_axis_cc")
        # The block repeats its completer ready per 128-bit quarter; the model drives the one bit
        completions.tready = pcie.cc_ready
        self.root = RootComplex()
        self.device = UltraScalePlusPcieDevice(
            pcie_generation=3, pcie_link_width=16, user_clk_frequency=250e6, alignment="dword",
            cq_straddle=False, cc_straddle=False, rq_straddle=False, rc_straddle=False, rc_4tlp_straddle=False,
            pf_count=1, max_payload_size=1024, enable_client_tag=True, enable_extended_tag=False,
            enable_parity=False, pf0_msi_enable=False, pf0_msix_enable=False,
            user_clk=pcie.user_clk, user_reset=pcie.user_reset, user_lnk_up=pcie.user_lnk_up,
            sys_reset=dut.pcie_reset_n,
            cq_bus=AxiStreamBus.from_prefix(pcie, "m_axis_cq"), cc_bus=completions)
        for logger in (self.device.log, self.root.log, *(logging.getLogger(f"cocotb.{pcie._name}.{bus}")
                                                         for bus in ("m_axis_cq", "s_axis_cc"))):
            logger.setLevel(logging.WARNING)
        self.root.make_port().connect(self.device)
        function = self.device.functions[0]
        function.class_code = 0x120000  # processing accelerator, as build.tcl configures the block
        function.configure_bar(0, BAR0_BYTES)
        self.bar = None

    async def power_on(self):
        """Clocks running, PERST# held then released (the MAC leaves reset with it), the link
        trained, the card enumerated and its memory space enabled: what firmware and the OS do."""
        dut = self.dut
        for pin in (dut.pcie_refclk_p, dut.pcie_refclk_n, dut.qsfp0_refclk_n, dut.clk_100mhz_n):
            pin.value = 0
        cocotb.start_soon(Clock(dut.qsfp0_refclk_p, MAC_PERIOD_NS, unit="ns").start())
        cocotb.start_soon(Clock(dut.clk_100mhz_p, BOARD_PERIOD_NS, unit="ns").start())
        dut.pcie_reset_n.value = 0
        await Timer(200, "ns")
        # The block holds its user reset until 100 ns after PERST# is released
        dut.pcie_reset_n.value = 1
        await with_timeout(FallingEdge(dut.pcie_inst.user_reset), 1, "us")
        await Timer(100, "ns")
        await self.root.enumerate()
        card = self.root.find_device(self.device.functions[0].pcie_id)
        await card.enable_device()
        # One dword per TLP, as a host's loads and stores on the mapped BAR are (--link pci://)
        self.bar = PcieBarAccess(card.bar_window[0], dut.pcie_inst.user_clk, BAR_READ_TIMEOUT_NS, dword_accesses=True)
        # The MAC's receiver aligned on its loopback
        for _ in range(100):
            if dut.qsfp0_led_link.value == 1:
                break
            await ClockCycles(dut.qsfp0_refclk_p, 10)
        assert dut.qsfp0_led_link.value == 1, "the MAC's receiver never aligned on its loopback"


# About 116 us of simulated time
@cocotb.test(timeout_time=500, timeout_unit="us")
async def bring_up_over_the_pcie_bar_with_the_mac_looped_back(dut):
    tb = CardBench(dut)
    await tb.power_on()
    log = io.StringIO()
    report = await bringup.bring_up(tb.bar, "pci (cocotbext-pcie model)", bringup.Progress(log))
    dut._log.info("bring-up report:\n%s", log.getvalue())
    assert report.passed, log.getvalue()
    assert [block["type"] for block in report.blocks][:1] == ["DPID"], report.blocks
    names = [check.name for check in report.checks]
    assert "RDMA loopback smoke (the MAC looped back)" in names, names
    assert dut.qsfp0_led_fault.value == 0, "the receive crossing overflowed (or the link dropped)"
