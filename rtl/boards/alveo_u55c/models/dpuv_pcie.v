// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Simulation model of dpuv_pcie, the UltraScale+ PCIe block (pcie4c_uscale_plus) as build.tcl configures it
`resetall
`timescale 1ns / 1ps
`default_nettype none

// The ports the Alveo top connects, with the real block's names and widths (512-bit AXI4-Stream
// interfaces, Gen3 x16). It models the block's user side only, not the link: the user clock is
// the reference clock the testbench drives (the real block makes 250 MHz from 100 MHz), the user
// reset follows PERST#, and the link is up once it is released. A testbench plays the host at
// the completer interface: it drives the m_axis_cq_* registers (a hierarchical deposit, as
// cocotbext-pcie's UltraScale+ model drives a design's CQ port) and takes what s_axis_cc_* offers,
// which the model always accepts. There are no requests (RQ) and so no completions (RC).
module dpuv_pcie (
    input  wire         sys_clk,
    input  wire         sys_clk_gt,
    input  wire         sys_reset,
    input  wire [15:0]  pci_exp_rxp,
    input  wire [15:0]  pci_exp_rxn,
    output wire [15:0]  pci_exp_txp,
    output wire [15:0]  pci_exp_txn,

    output wire         user_clk,
    output reg          user_reset,
    output wire         user_lnk_up,

    output reg  [511:0] m_axis_cq_tdata,
    output reg  [15:0]  m_axis_cq_tkeep,
    output reg          m_axis_cq_tvalid,
    input  wire         m_axis_cq_tready,
    output reg          m_axis_cq_tlast,
    output reg  [182:0] m_axis_cq_tuser,

    input  wire [511:0] s_axis_cc_tdata,
    input  wire [15:0]  s_axis_cc_tkeep,
    input  wire         s_axis_cc_tvalid,
    output wire [3:0]   s_axis_cc_tready,
    input  wire         s_axis_cc_tlast,
    input  wire [80:0]  s_axis_cc_tuser,

    input  wire [511:0] s_axis_rq_tdata,
    input  wire [15:0]  s_axis_rq_tkeep,
    input  wire         s_axis_rq_tvalid,
    output wire [3:0]   s_axis_rq_tready,
    input  wire         s_axis_rq_tlast,
    input  wire [136:0] s_axis_rq_tuser,

    output wire [511:0] m_axis_rc_tdata,
    output wire [15:0]  m_axis_rc_tkeep,
    output wire         m_axis_rc_tvalid,
    input  wire         m_axis_rc_tready,
    output wire         m_axis_rc_tlast,
    output wire [160:0] m_axis_rc_tuser,

    input  wire [1:0]   pcie_cq_np_req,
    input  wire [3:0]   cfg_interrupt_int,
    input  wire [3:0]   cfg_interrupt_pending
);

/* verilator lint_off UNUSEDSIGNAL */
// What the model takes but does not act on: the link's lanes, the requester side, the sideband
wire unused = &{1'b0, sys_clk, pci_exp_rxp, pci_exp_rxn, m_axis_cq_tready, s_axis_cc_tdata, s_axis_cc_tkeep,
                s_axis_cc_tvalid, s_axis_cc_tlast, s_axis_cc_tuser, s_axis_rq_tdata, s_axis_rq_tkeep,
                s_axis_rq_tvalid, s_axis_rq_tlast, s_axis_rq_tuser, m_axis_rc_tready, pcie_cq_np_req,
                cfg_interrupt_int, cfg_interrupt_pending};
/* verilator lint_on UNUSEDSIGNAL */

assign pci_exp_txp = 16'd0;
assign pci_exp_txn = 16'd0;
assign user_clk = sys_clk_gt;

// PERST# (sys_reset, active low) held: user_reset; released: two user clocks later
reg perst_seen;
always @(posedge user_clk or negedge sys_reset) begin
    if (!sys_reset) begin
        perst_seen <= 1'b1;
        user_reset <= 1'b1;
    end else begin
        perst_seen <= 1'b0;
        user_reset <= perst_seen;
    end
end
assign user_lnk_up = !user_reset;

// The host's requests: idle until a testbench drives them
initial begin
    m_axis_cq_tdata = 512'd0;
    m_axis_cq_tkeep = 16'd0;
    m_axis_cq_tvalid = 1'b0;
    m_axis_cq_tlast = 1'b0;
    m_axis_cq_tuser = 183'd0;
end

assign s_axis_cc_tready = 4'hF;
assign s_axis_rq_tready = 4'hF;
assign m_axis_rc_tdata = 512'd0;
assign m_axis_rc_tkeep = 16'd0;
assign m_axis_rc_tvalid = 1'b0;
assign m_axis_rc_tlast = 1'b0;
assign m_axis_rc_tuser = 161'd0;

endmodule

`resetall
