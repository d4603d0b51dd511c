// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Simulation model of dpuv_pcie, the UltraScale+ PCIe block (pcie4c_uscale_plus) as build.tcl configures it
`resetall
`timescale 1ns / 1ps
`default_nettype none

// The ports the Alveo top connects, with the real block's names and widths (512-bit AXI4-Stream
// interfaces, Gen3 x16). The block's behaviour is cocotbext-pcie's UltraScale+ model's (its
// configuration space, link training, the completer interface's TLPs and their timing), which a
// testbench attaches to this instance: the model drives the user clock, reset and link-up and the
// m_axis_cq_* requests held here (marked for a simulator's write access), and takes what
// s_axis_cc_* offers. Until a testbench drives them they hold still: the user clock low, the user
// reset high, no request, so a simulation without the host model elaborates and idles. The node
// issues no requests (RQ), so no completions come back (RC).
module dpuv_pcie (
    input  wire         sys_clk,
    input  wire         sys_clk_gt,
    input  wire         sys_reset,
    input  wire [15:0]  pci_exp_rxp,
    input  wire [15:0]  pci_exp_rxn,
    output wire [15:0]  pci_exp_txp,
    output wire [15:0]  pci_exp_txn,

    output reg          user_clk /*verilator public_flat_rw*/,
    output reg          user_reset /*verilator public_flat_rw*/,
    output reg          user_lnk_up /*verilator public_flat_rw*/,

    output reg  [511:0] m_axis_cq_tdata /*verilator public_flat_rw*/,
    output reg  [15:0]  m_axis_cq_tkeep /*verilator public_flat_rw*/,
    output reg          m_axis_cq_tvalid /*verilator public_flat_rw*/,
    input  wire         m_axis_cq_tready /*verilator public_flat_rd*/,
    output reg          m_axis_cq_tlast /*verilator public_flat_rw*/,
    output reg  [182:0] m_axis_cq_tuser /*verilator public_flat_rw*/,

    input  wire [511:0] s_axis_cc_tdata /*verilator public_flat_rd*/,
    input  wire [15:0]  s_axis_cc_tkeep /*verilator public_flat_rd*/,
    input  wire         s_axis_cc_tvalid /*verilator public_flat_rd*/,
    output wire [3:0]   s_axis_cc_tready,
    input  wire         s_axis_cc_tlast /*verilator public_flat_rd*/,
    input  wire [80:0]  s_axis_cc_tuser /*verilator public_flat_rd*/,

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
wire unused = &{1'b0, sys_clk, sys_clk_gt, sys_reset, pci_exp_rxp, pci_exp_rxn, m_axis_cq_tready, s_axis_cc_tdata, s_axis_cc_tkeep,
                s_axis_cc_tvalid, s_axis_cc_tlast, s_axis_cc_tuser, s_axis_rq_tdata, s_axis_rq_tkeep,
                s_axis_rq_tvalid, s_axis_rq_tlast, s_axis_rq_tuser, m_axis_rc_tready, pcie_cq_np_req,
                cfg_interrupt_int, cfg_interrupt_pending};
/* verilator lint_on UNUSEDSIGNAL */

assign pci_exp_txp = 16'd0;
assign pci_exp_txn = 16'd0;

initial begin
    user_clk = 1'b0;
    user_reset = 1'b1;
    user_lnk_up = 1'b0;
    m_axis_cq_tdata = 512'd0;
    m_axis_cq_tkeep = 16'd0;
    m_axis_cq_tvalid = 1'b0;
    m_axis_cq_tlast = 1'b0;
    m_axis_cq_tuser = 183'd0;
end

// The completer interface's ready: one bit, which the host model drives; the block repeats it
// for each 128-bit quarter of the interface
reg cc_ready /*verilator public_flat_rw*/;
initial cc_ready = 1'b1;
assign s_axis_cc_tready = {4{cc_ready}};
assign s_axis_rq_tready = 4'hF;
assign m_axis_rc_tdata = 512'd0;
assign m_axis_rc_tkeep = 16'd0;
assign m_axis_rc_tvalid = 1'b0;
assign m_axis_rc_tlast = 1'b0;
assign m_axis_rc_tuser = 161'd0;

endmodule

`resetall
