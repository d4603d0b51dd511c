// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Simulation model of dpuv_cmac, the UltraScale+ 100G Ethernet block (cmac_usplus) as build.tcl configures it
`resetall
`timescale 1ns / 1ps
`default_nettype none

// The ports the Alveo top connects, with the real block's names and widths (CAUI-4, 512-bit
// AXI4-Stream user interface, RS-FEC). It models the user side, not the lanes: the user clock is
// the reference clock the testbench drives (322.27 MHz stands for the real 161.13 MHz reference
// multiplied by the transceivers), the user resets follow sys_reset, and with the transceivers in
// a near-end loopback (gt_loopback_in non-zero, as a board self-test sets it) every frame sent
// comes back on the receive side, beat for beat (a frame the user let run dry arrives flagged
// bad, as the real MAC's underflow puts it on the wire), and the receiver reports alignment. Without the
// loopback there is no far end in a simulation: the receiver never aligns and nothing is received.
module dpuv_cmac (
    input  wire         gt_ref_clk_p,
    input  wire         gt_ref_clk_n,
    input  wire [3:0]   gt_rxp_in,
    input  wire [3:0]   gt_rxn_in,
    output wire [3:0]   gt_txp_out,
    output wire [3:0]   gt_txn_out,
    input  wire         init_clk,
    input  wire         drp_clk,
    input  wire         sys_reset,
    input  wire         gtwiz_reset_tx_datapath,
    input  wire         gtwiz_reset_rx_datapath,
    input  wire         core_tx_reset,
    input  wire         core_rx_reset,
    input  wire         core_drp_reset,
    output wire         gt_txusrclk2,
    input  wire         rx_clk,
    output wire         gt_rxusrclk2,
    output reg          usr_tx_reset,
    output reg          usr_rx_reset,
    input  wire [11:0]  gt_loopback_in,

    input  wire         ctl_rx_enable,
    input  wire         ctl_rx_force_resync,
    input  wire         ctl_rx_test_pattern,
    input  wire         ctl_tx_enable,
    input  wire         ctl_tx_send_rfi,
    input  wire         ctl_tx_send_lfi,
    input  wire         ctl_tx_send_idle,
    input  wire         ctl_tx_test_pattern,
    input  wire         ctl_rx_rsfec_enable,
    input  wire         ctl_tx_rsfec_enable,
    input  wire         ctl_rx_rsfec_enable_correction,
    input  wire         ctl_rx_rsfec_enable_indication,
    input  wire         ctl_rsfec_ieee_error_indication_mode,
    output wire         stat_rx_aligned,

    output reg  [511:0] rx_axis_tdata,
    output reg  [63:0]  rx_axis_tkeep,
    output reg          rx_axis_tvalid,
    output reg          rx_axis_tlast,
    output reg          rx_axis_tuser,
    input  wire [511:0] tx_axis_tdata,
    input  wire [63:0]  tx_axis_tkeep,
    input  wire         tx_axis_tvalid,
    output wire         tx_axis_tready,
    input  wire         tx_axis_tlast,
    input  wire         tx_axis_tuser,
    input  wire [55:0]  tx_preamblein,

    input  wire [9:0]   drp_addr,
    input  wire [15:0]  drp_di,
    input  wire         drp_en,
    input  wire         drp_we
);

/* verilator lint_off UNUSEDSIGNAL */
// What the model takes but does not act on: the lanes, the free-running and DRP clocks, the
// transceiver resets, test patterns, fault signalling and FEC settings
wire unused = &{1'b0, gt_ref_clk_n, gt_rxp_in, gt_rxn_in, init_clk, drp_clk, gtwiz_reset_tx_datapath,
                gtwiz_reset_rx_datapath, core_tx_reset, core_rx_reset, core_drp_reset, rx_clk,
                ctl_rx_force_resync, ctl_rx_test_pattern, ctl_tx_send_rfi, ctl_tx_send_lfi, ctl_tx_send_idle,
                ctl_tx_test_pattern, ctl_rx_rsfec_enable, ctl_tx_rsfec_enable, ctl_rx_rsfec_enable_correction,
                ctl_rx_rsfec_enable_indication, ctl_rsfec_ieee_error_indication_mode, tx_preamblein,
                drp_addr, drp_di, drp_en, drp_we};
/* verilator lint_on UNUSEDSIGNAL */

assign gt_txp_out = 4'd0;
assign gt_txn_out = 4'd0;
assign gt_txusrclk2 = gt_ref_clk_p;
assign gt_rxusrclk2 = gt_ref_clk_p;

reg reset_seen;
always @(posedge gt_txusrclk2 or posedge sys_reset) begin
    if (sys_reset) begin
        reset_seen <= 1'b1;
        usr_tx_reset <= 1'b1;
        usr_rx_reset <= 1'b1;
    end else begin
        reset_seen <= 1'b0;
        usr_tx_reset <= reset_seen;
        usr_rx_reset <= reset_seen;
    end
end

wire looped_back = gt_loopback_in != 12'd0;
assign stat_rx_aligned = looped_back && !usr_rx_reset;
assign tx_axis_tready = ctl_tx_enable && !usr_tx_reset;

// The MAC sends a frame's beats back to back: once a frame has started, a cycle in which it is
// ready and the user has no beat (an underflow) breaks the frame on the wire, and the far end
// receives it with a bad FCS. So does a frame sent with tuser set.
reg in_frame, frame_broken;
wire underflow = in_frame && tx_axis_tready && !tx_axis_tvalid;
wire tx_beat = tx_axis_tvalid && tx_axis_tready;

always @(posedge gt_txusrclk2) begin
    rx_axis_tvalid <= looped_back && ctl_rx_enable && tx_beat;
    rx_axis_tdata <= tx_axis_tdata;
    rx_axis_tkeep <= tx_axis_tkeep;
    rx_axis_tlast <= tx_axis_tlast;
    rx_axis_tuser <= tx_axis_tuser || frame_broken || underflow;
    if (tx_beat) begin
        in_frame <= !tx_axis_tlast;
    end
    if (underflow) begin
        frame_broken <= 1'b1;
    end
    if (tx_beat && tx_axis_tlast) begin
        frame_broken <= 1'b0;
    end
    if (usr_tx_reset) begin
        in_frame <= 1'b0;
        frame_broken <= 1'b0;
    end
    if (usr_rx_reset) begin
        rx_axis_tvalid <= 1'b0;
    end
end

endmodule

`resetall
