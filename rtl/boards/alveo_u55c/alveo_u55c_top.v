// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Alveo U55C: one DPU node behind the PCIe hard block (BAR0) and the 100G MAC hard block (QSFP28 cage 0)
`resetall
`timescale 1ns / 1ps
`default_nettype none

// The card's build (build.tcl, Vivado). The node runs at 512 bits on the PCIe block's user clock,
// 250 MHz at Gen3 x16, the clock every engine figure assumes. The MAC's user interface runs on its
// transceivers' clock (322.27 MHz for 100GBASE-R); two FIFOs cross between the two:
//   receive:  the MAC cannot be held back, and the node takes a beat every core cycle, faster than
//             the line (100 Gb/s is 195 M beats of 64 bytes a second, the core takes 250 M), so a
//             plain FIFO of a few frames' bursts never fills; an overflow would be counted on a LED.
//   transmit: a frame FIFO, so the MAC never runs dry inside a frame (it would abort it).
// BAR0 (64 KiB) is the node's register bus: its ID block at 0 (the chain starts there, so
// `dpuv bringup --link pci://...` walks it), its memory window at 0x8000, as on the boards.
// The node's memory is on-chip (board_node); HBM and host-memory DMA are not part of this build.
module alveo_u55c_top #(
    // Queue pairs in the node's RDMA engine
    parameter QP_COUNT = 16,
    // 1: the MAC's transceivers loop every frame back inside the chip (a card's self-test with no
    // cable, and how a simulation with the MAC's model exchanges frames); 0: the QSFP28 cage
    parameter NEAR_END_LOOPBACK = 0,
    // First 32 bits of the git commit, stamped by build.tcl
    parameter [31:0] GIT_HASH = 32'd0
) (
    // PCIe x16 edge: 100 MHz reference clock (MGTREFCLK0 of quad 225) and PERST#
    input  wire        pcie_refclk_p,
    input  wire        pcie_refclk_n,
    input  wire        pcie_reset_n,
    input  wire [15:0] pcie_rx_p,
    input  wire [15:0] pcie_rx_n,
    output wire [15:0] pcie_tx_p,
    output wire [15:0] pcie_tx_n,

    // QSFP28 cage 0: 161.1328125 MHz transceiver reference (MGTREFCLK0 of quad 130), four 25G lanes
    input  wire        qsfp0_refclk_p,
    input  wire        qsfp0_refclk_n,
    input  wire [3:0]  qsfp0_rx_p,
    input  wire [3:0]  qsfp0_rx_n,
    output wire [3:0]  qsfp0_tx_p,
    output wire [3:0]  qsfp0_tx_n,

    // 100 MHz board clock: the MAC's free-running initialisation and DRP clock
    input  wire        clk_100mhz_p,
    input  wire        clk_100mhz_n,

    // Cage 0's LEDs: activity, link up (green), a receive overflow or no link (yellow)
    output wire        qsfp0_led_activity,
    output wire        qsfp0_led_link,
    output wire        qsfp0_led_fault,

    // Held low: high tells the card's controller the HBM is overheating and cuts its power
    output wire        hbm_cattrip
);

localparam DATA_WIDTH = 512;
localparam KEEP_WIDTH = DATA_WIDTH / 8;
localparam PCIE_KEEP_WIDTH = DATA_WIDTH / 32;
// Completer interface sideband widths of the UltraScale+ PCIe block at 512 bits
localparam CQ_USER_WIDTH = 183;
localparam CC_USER_WIDTH = 81;
localparam RQ_USER_WIDTH = 137;
// Receive FIFO: a few bursts of the largest frame (4 KiB payload + headers = 66 beats)
localparam RX_FIFO_DEPTH = 256;
// Transmit FIFO: must hold the largest frame whole
localparam TX_FIFO_DEPTH = 128;

assign hbm_cattrip = 1'b0;

// ---- Clocks ----

wire pcie_sys_clk, pcie_sys_clk_gt;
IBUFDS_GTE4 #(
    .REFCLK_HROW_CK_SEL(2'b00)
) pcie_refclk_buffer (
    .I(pcie_refclk_p), .IB(pcie_refclk_n), .CEB(1'b0), .O(pcie_sys_clk_gt), .ODIV2(pcie_sys_clk)
);

wire init_clk_unbuffered, init_clk;
IBUFDS board_clock_input (.I(clk_100mhz_p), .IB(clk_100mhz_n), .O(init_clk_unbuffered));
BUFG board_clock_buffer (.I(init_clk_unbuffered), .O(init_clk));

// ---- PCIe: the core clock, its reset and BAR0 ----

wire clk, pcie_user_reset, pcie_link_up;

wire [DATA_WIDTH-1:0]      cq_tdata;
wire [PCIE_KEEP_WIDTH-1:0] cq_tkeep;
wire                       cq_tvalid, cq_tready, cq_tlast;
wire [CQ_USER_WIDTH-1:0]   cq_tuser;
wire [DATA_WIDTH-1:0]      cc_tdata;
wire [PCIE_KEEP_WIDTH-1:0] cc_tkeep;
wire                       cc_tvalid, cc_tlast;
wire [3:0]                 cc_tready;
wire [CC_USER_WIDTH-1:0]   cc_tuser;

dpuv_pcie pcie_inst (
    .sys_clk(pcie_sys_clk), .sys_clk_gt(pcie_sys_clk_gt), .sys_reset(pcie_reset_n),
    .pci_exp_rxp(pcie_rx_p), .pci_exp_rxn(pcie_rx_n), .pci_exp_txp(pcie_tx_p), .pci_exp_txn(pcie_tx_n),
    .user_clk(clk), .user_reset(pcie_user_reset), .user_lnk_up(pcie_link_up),
    .m_axis_cq_tdata(cq_tdata), .m_axis_cq_tkeep(cq_tkeep), .m_axis_cq_tvalid(cq_tvalid),
    .m_axis_cq_tready(cq_tready), .m_axis_cq_tlast(cq_tlast), .m_axis_cq_tuser(cq_tuser),
    .s_axis_cc_tdata(cc_tdata), .s_axis_cc_tkeep(cc_tkeep), .s_axis_cc_tvalid(cc_tvalid),
    .s_axis_cc_tready(cc_tready), .s_axis_cc_tlast(cc_tlast), .s_axis_cc_tuser(cc_tuser),
    // The node reaches no host memory: no requests, so no completions to take
    .s_axis_rq_tdata({DATA_WIDTH{1'b0}}), .s_axis_rq_tkeep({PCIE_KEEP_WIDTH{1'b0}}), .s_axis_rq_tvalid(1'b0),
    .s_axis_rq_tready(), .s_axis_rq_tlast(1'b0), .s_axis_rq_tuser({RQ_USER_WIDTH{1'b0}}),
    .m_axis_rc_tdata(), .m_axis_rc_tkeep(), .m_axis_rc_tvalid(), .m_axis_rc_tready(1'b1), .m_axis_rc_tlast(),
    .m_axis_rc_tuser(),
    // Always ready for another non-posted request (a BAR read): the completer takes one at a time
    .pcie_cq_np_req(2'b11),
    .cfg_interrupt_int(4'd0), .cfg_interrupt_pending(4'd0)
);

// The node (and its register bus) in reset while the link is down
wire rst = pcie_user_reset || !pcie_link_up;

wire [15:0] bar_awaddr, bar_araddr;
wire [2:0]  bar_awprot, bar_arprot;
wire        bar_awvalid, bar_awready, bar_wvalid, bar_wready, bar_bvalid, bar_bready;
wire        bar_arvalid, bar_arready, bar_rvalid, bar_rready;
wire [31:0] bar_wdata, bar_rdata;
wire [3:0]  bar_wstrb;
wire [1:0]  bar_bresp, bar_rresp;

pcie_us_cq_axil #(
    .DATA_WIDTH(DATA_WIDTH), .ADDR_WIDTH(16)
) bar0_inst (
    .clk(clk), .rst(rst),
    .s_axis_cq_tdata(cq_tdata), .s_axis_cq_tkeep(cq_tkeep), .s_axis_cq_tvalid(cq_tvalid),
    .s_axis_cq_tready(cq_tready), .s_axis_cq_tlast(cq_tlast), .s_axis_cq_tuser(cq_tuser),
    .m_axis_cc_tdata(cc_tdata), .m_axis_cc_tkeep(cc_tkeep), .m_axis_cc_tvalid(cc_tvalid),
    .m_axis_cc_tready(cc_tready[0]), .m_axis_cc_tlast(cc_tlast), .m_axis_cc_tuser(cc_tuser),
    .m_axil_awaddr(bar_awaddr), .m_axil_awprot(bar_awprot), .m_axil_awvalid(bar_awvalid), .m_axil_awready(bar_awready),
    .m_axil_wdata(bar_wdata), .m_axil_wstrb(bar_wstrb), .m_axil_wvalid(bar_wvalid), .m_axil_wready(bar_wready),
    .m_axil_bresp(bar_bresp), .m_axil_bvalid(bar_bvalid), .m_axil_bready(bar_bready),
    .m_axil_araddr(bar_araddr), .m_axil_arprot(bar_arprot), .m_axil_arvalid(bar_arvalid), .m_axil_arready(bar_arready),
    .m_axil_rdata(bar_rdata), .m_axil_rresp(bar_rresp), .m_axil_rvalid(bar_rvalid), .m_axil_rready(bar_rready),
    .event_unsupported()
);

// ---- The 100G MAC ----

wire        mac_clk, mac_tx_reset, mac_rx_reset, mac_rx_aligned;
wire [DATA_WIDTH-1:0] mac_rx_tdata, mac_tx_tdata;
wire [KEEP_WIDTH-1:0] mac_rx_tkeep, mac_tx_tkeep;
wire        mac_rx_tvalid, mac_rx_tlast, mac_rx_tuser;
wire        mac_tx_tvalid, mac_tx_tready, mac_tx_tlast;

dpuv_cmac mac_inst (
    .gt_ref_clk_p(qsfp0_refclk_p), .gt_ref_clk_n(qsfp0_refclk_n),
    .gt_rxp_in(qsfp0_rx_p), .gt_rxn_in(qsfp0_rx_n), .gt_txp_out(qsfp0_tx_p), .gt_txn_out(qsfp0_tx_n),
    .init_clk(init_clk), .drp_clk(init_clk),
    // The MAC comes out of reset when the host releases PERST#
    .sys_reset(!pcie_reset_n),
    .gtwiz_reset_tx_datapath(1'b0), .gtwiz_reset_rx_datapath(1'b0),
    .core_tx_reset(1'b0), .core_rx_reset(1'b0), .core_drp_reset(1'b0),
    // Receive on the transmit clock: one MAC clock domain
    .gt_txusrclk2(mac_clk), .rx_clk(mac_clk), .gt_rxusrclk2(),
    .usr_tx_reset(mac_tx_reset), .usr_rx_reset(mac_rx_reset),
    // Per lane 3'b010: near-end PMA loopback
    .gt_loopback_in(NEAR_END_LOOPBACK ? {4{3'b010}} : 12'd0),
    .ctl_rx_enable(1'b1), .ctl_rx_force_resync(1'b0), .ctl_rx_test_pattern(1'b0),
    // Until the receiver is aligned, tell the far end (remote fault) and send no frames
    .ctl_tx_enable(mac_rx_aligned), .ctl_tx_send_rfi(!mac_rx_aligned), .ctl_tx_send_lfi(1'b0),
    .ctl_tx_send_idle(1'b0), .ctl_tx_test_pattern(1'b0),
    // RS-FEC (Clause 91), which 100GBASE-SR4 and -CR4 require
    .ctl_rx_rsfec_enable(1'b1), .ctl_tx_rsfec_enable(1'b1), .ctl_rx_rsfec_enable_correction(1'b1),
    .ctl_rx_rsfec_enable_indication(1'b1), .ctl_rsfec_ieee_error_indication_mode(1'b0),
    .stat_rx_aligned(mac_rx_aligned),
    .rx_axis_tdata(mac_rx_tdata), .rx_axis_tkeep(mac_rx_tkeep), .rx_axis_tvalid(mac_rx_tvalid),
    .rx_axis_tlast(mac_rx_tlast), .rx_axis_tuser(mac_rx_tuser),
    .tx_axis_tdata(mac_tx_tdata), .tx_axis_tkeep(mac_tx_tkeep), .tx_axis_tvalid(mac_tx_tvalid),
    .tx_axis_tready(mac_tx_tready), .tx_axis_tlast(mac_tx_tlast), .tx_axis_tuser(1'b0),
    .tx_preamblein(56'd0),
    .drp_addr(10'd0), .drp_di(16'd0), .drp_en(1'b0), .drp_we(1'b0)
);

// ---- Crossing between the MAC's clock and the core's ----

// One reset for both sides of both FIFOs (they require it): the core's or the MAC's
wire crossing_reset_source = rst || mac_tx_reset || mac_rx_reset;
wire crossing_reset_core, crossing_reset_mac;
reset_synchronizer core_side_reset (.clk(clk), .rst_in(crossing_reset_source), .rst_out(crossing_reset_core));
reset_synchronizer mac_side_reset (.clk(mac_clk), .rst_in(crossing_reset_source), .rst_out(crossing_reset_mac));

wire [DATA_WIDTH-1:0] node_rx_tdata, node_tx_tdata;
wire [KEEP_WIDTH-1:0] node_rx_tkeep, node_tx_tkeep;
wire node_rx_tvalid, node_rx_tlast, node_rx_tuser;
wire node_tx_tvalid, node_tx_tready, node_tx_tlast;
wire rx_fifo_ready;

axis_async_fifo #(
    .DEPTH(RX_FIFO_DEPTH), .DATA_WIDTH(DATA_WIDTH), .USER_WIDTH(1), .FRAME_FIFO(0)
) rx_crossing (
    .s_clk(mac_clk), .s_rst(crossing_reset_mac),
    .s_axis_tdata(mac_rx_tdata), .s_axis_tkeep(mac_rx_tkeep), .s_axis_tvalid(mac_rx_tvalid),
    .s_axis_tready(rx_fifo_ready), .s_axis_tlast(mac_rx_tlast), .s_axis_tuser(mac_rx_tuser),
    .m_clk(clk), .m_rst(crossing_reset_core),
    .m_axis_tdata(node_rx_tdata), .m_axis_tkeep(node_rx_tkeep), .m_axis_tvalid(node_rx_tvalid),
    .m_axis_tready(1'b1), .m_axis_tlast(node_rx_tlast), .m_axis_tuser(node_rx_tuser)
);

axis_async_fifo #(
    .DEPTH(TX_FIFO_DEPTH), .DATA_WIDTH(DATA_WIDTH), .USER_WIDTH(1), .FRAME_FIFO(1)
) tx_crossing (
    .s_clk(clk), .s_rst(crossing_reset_core),
    .s_axis_tdata(node_tx_tdata), .s_axis_tkeep(node_tx_tkeep), .s_axis_tvalid(node_tx_tvalid),
    .s_axis_tready(node_tx_tready), .s_axis_tlast(node_tx_tlast), .s_axis_tuser(1'b0),
    .m_clk(mac_clk), .m_rst(crossing_reset_mac),
    .m_axis_tdata(mac_tx_tdata), .m_axis_tkeep(mac_tx_tkeep), .m_axis_tvalid(mac_tx_tvalid),
    .m_axis_tready(mac_tx_tready), .m_axis_tlast(mac_tx_tlast), .m_axis_tuser()
);

// ---- The node ----

board_node #(
    .DATA_WIDTH(DATA_WIDTH), .QP_COUNT(QP_COUNT), .COLLECTIVE(1), .GIT_HASH(GIT_HASH), .SIMULATION(0)
) node_inst (
    .clk(clk), .rst(rst),
    .s_axil_awaddr(bar_awaddr), .s_axil_awprot(bar_awprot), .s_axil_awvalid(bar_awvalid), .s_axil_awready(bar_awready),
    .s_axil_wdata(bar_wdata), .s_axil_wstrb(bar_wstrb), .s_axil_wvalid(bar_wvalid), .s_axil_wready(bar_wready),
    .s_axil_bresp(bar_bresp), .s_axil_bvalid(bar_bvalid), .s_axil_bready(bar_bready),
    .s_axil_araddr(bar_araddr), .s_axil_arprot(bar_arprot), .s_axil_arvalid(bar_arvalid), .s_axil_arready(bar_arready),
    .s_axil_rdata(bar_rdata), .s_axil_rresp(bar_rresp), .s_axil_rvalid(bar_rvalid), .s_axil_rready(bar_rready),
    .s_axis_rx_tdata(node_rx_tdata), .s_axis_rx_tkeep(node_rx_tkeep), .s_axis_rx_tvalid(node_rx_tvalid),
    .s_axis_rx_tlast(node_rx_tlast), .s_axis_rx_tuser(node_rx_tuser),
    .m_axis_tx_tdata(node_tx_tdata), .m_axis_tx_tkeep(node_tx_tkeep), .m_axis_tx_tvalid(node_tx_tvalid),
    .m_axis_tx_tready(node_tx_tready), .m_axis_tx_tlast(node_tx_tlast)
);

// ---- LEDs (MAC clock) ----

// A frame in either direction lights the activity LED for 2^22 cycles (13 ms); a receive beat the
// FIFO could not take (a node that fell behind the line: a bug) latches the fault LED until reset
localparam LED_HOLD_BITS = 22;
reg [LED_HOLD_BITS-1:0] activity_hold;
reg rx_overflow_seen;
always @(posedge mac_clk) begin
    if ((mac_rx_tvalid && mac_rx_tlast) || (mac_tx_tvalid && mac_tx_tready && mac_tx_tlast)) begin
        activity_hold <= {LED_HOLD_BITS{1'b1}};
    end else if (activity_hold != 0) begin
        activity_hold <= activity_hold - 1'b1;
    end
    if (mac_rx_tvalid && !rx_fifo_ready) begin
        rx_overflow_seen <= 1'b1;
    end
    if (crossing_reset_mac) begin
        activity_hold <= 0;
        rx_overflow_seen <= 1'b0;
    end
end

assign qsfp0_led_activity = activity_hold != 0;
assign qsfp0_led_link = mac_rx_aligned;
assign qsfp0_led_fault = rx_overflow_seen || !mac_rx_aligned;

endmodule

`resetall
