// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Performance-counter register block: perf_counters behind its SystemRDL CSRs
`resetall
`timescale 1ns / 1ps
`default_nettype none

module perf_block #(
    // Byte address of the next block in the register-block chain (0: none)
    parameter [31:0] NEXT_BLOCK_ADDRESS = 32'd0,
    // Design-specific number telling software which stream this block watches
    parameter [31:0] SOURCE_ID = 32'd0,
    // Width of the monitored stream's tkeep (bytes per beat)
    parameter KEEP_WIDTH = 8,
    // Latency starts that may wait for their stop at once (a power of two)
    parameter LATENCY_DEPTH = 16
) (
    input  wire                  clk,
    input  wire                  rst,

    input  wire [11:0]           s_axil_awaddr,
    input  wire [2:0]            s_axil_awprot,
    input  wire                  s_axil_awvalid,
    output wire                  s_axil_awready,
    input  wire [31:0]           s_axil_wdata,
    input  wire [3:0]            s_axil_wstrb,
    input  wire                  s_axil_wvalid,
    output wire                  s_axil_wready,
    output wire [1:0]            s_axil_bresp,
    output wire                  s_axil_bvalid,
    input  wire                  s_axil_bready,
    input  wire [11:0]           s_axil_araddr,
    input  wire [2:0]            s_axil_arprot,
    input  wire                  s_axil_arvalid,
    output wire                  s_axil_arready,
    output wire [31:0]           s_axil_rdata,
    output wire [1:0]            s_axil_rresp,
    output wire                  s_axil_rvalid,
    input  wire                  s_axil_rready,

    input  wire                  mon_tvalid,
    input  wire                  mon_tready,
    input  wire                  mon_tlast,
    input  wire [KEEP_WIDTH-1:0] mon_tkeep,
    input  wire                  event_strobe,
    input  wire                  latency_start,
    input  wire                  latency_stop
);

wire counters_enable, counters_clear, counters_snapshot;
wire [63:0] cycles, beats, bytes, packets, stall_cycles, idle_cycles, active_cycles, events;
wire [63:0] latency_sum, latency_count, latency_errors;
wire [31:0] latency_min, latency_max;

perf_counters #(
    .KEEP_WIDTH(KEEP_WIDTH),
    .COUNTER_WIDTH(64),
    .LATENCY_WIDTH(32),
    .LATENCY_DEPTH(LATENCY_DEPTH)
) counters_inst (
    .clk(clk),
    .rst(rst),
    .enable(counters_enable),
    .clear(counters_clear),
    .snapshot(counters_snapshot),
    .mon_tvalid(mon_tvalid),
    .mon_tready(mon_tready),
    .mon_tlast(mon_tlast),
    .mon_tkeep(mon_tkeep),
    .event_strobe(event_strobe),
    .latency_start(latency_start),
    .latency_stop(latency_stop),
    .cycles(cycles),
    .beats(beats),
    .bytes(bytes),
    .packets(packets),
    .stall_cycles(stall_cycles),
    .idle_cycles(idle_cycles),
    .active_cycles(active_cycles),
    .events(events),
    .latency_min(latency_min),
    .latency_max(latency_max),
    .latency_sum(latency_sum),
    .latency_count(latency_count),
    .latency_errors(latency_errors)
);

perf_block_csr csr_inst (
    .clk(clk),
    .rst(rst),
    .s_axil_awready(s_axil_awready),
    .s_axil_awvalid(s_axil_awvalid),
    .s_axil_awaddr(s_axil_awaddr),
    .s_axil_awprot(s_axil_awprot),
    .s_axil_wready(s_axil_wready),
    .s_axil_wvalid(s_axil_wvalid),
    .s_axil_wdata(s_axil_wdata),
    .s_axil_wstrb(s_axil_wstrb),
    .s_axil_bready(s_axil_bready),
    .s_axil_bvalid(s_axil_bvalid),
    .s_axil_bresp(s_axil_bresp),
    .s_axil_arready(s_axil_arready),
    .s_axil_arvalid(s_axil_arvalid),
    .s_axil_araddr(s_axil_araddr),
    .s_axil_arprot(s_axil_arprot),
    .s_axil_rready(s_axil_rready),
    .s_axil_rvalid(s_axil_rvalid),
    .s_axil_rdata(s_axil_rdata),
    .s_axil_rresp(s_axil_rresp),
    .hwif_in_block_next_address(NEXT_BLOCK_ADDRESS),
    .hwif_in_source_id_id(SOURCE_ID),
    .hwif_out_ctrl_enable(counters_enable),
    .hwif_out_ctrl_clear(counters_clear),
    .hwif_out_ctrl_snapshot(counters_snapshot),
    .hwif_in_cycles_value(cycles),
    .hwif_in_beats_value(beats),
    .hwif_in_bytes_value(bytes),
    .hwif_in_packets_value(packets),
    .hwif_in_stall_cycles_value(stall_cycles),
    .hwif_in_idle_cycles_value(idle_cycles),
    .hwif_in_active_cycles_value(active_cycles),
    .hwif_in_events_value(events),
    .hwif_in_latency_min_value(latency_min),
    .hwif_in_latency_max_value(latency_max),
    .hwif_in_latency_sum_value(latency_sum),
    .hwif_in_latency_count_value(latency_count),
    .hwif_in_latency_errors_value(latency_errors)
);

endmodule

`resetall
