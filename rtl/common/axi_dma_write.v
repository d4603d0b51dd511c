// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// AXI4 DMA writer: a byte stream to any byte address of AXI4 memory, in bursts that never cross 4 KiB
`resetall
`timescale 1ns / 1ps
`default_nettype none

// One command (address, length) per payload frame. The payload is realigned to the address
// (axis_realign), so the first and last beats carry partial strobes, and cut into INCR bursts of
// at most MAX_BURST_BEATS that never cross a 4 KiB boundary (AXI4 forbids it). Address bursts
// run ahead of their data, up to OUTSTANDING_BURSTS waiting for write responses. Every command
// ends with one status pulse, in order, flagged when any of its bursts came back SLVERR/DECERR.
module axi_dma_write #(
    // Width of the data bus and payload stream in bits (a power of two, 32 to 1024)
    parameter DATA_WIDTH = 64,
    // Width of byte addresses
    parameter ADDR_WIDTH = 64,
    // Width of the byte length of one command
    parameter LEN_WIDTH = 16,
    // AXI ID of every burst
    parameter ID_WIDTH = 4,
    // Longest burst in beats (1 to 256)
    parameter MAX_BURST_BEATS = 256,
    // Bursts that may wait for their write response at once (a power of two)
    parameter OUTSTANDING_BURSTS = 16
) (
    input  wire                    clk,
    input  wire                    rst,

    // Write s_cmd_len bytes (1 or more) from the payload stream at s_cmd_addr
    input  wire [ADDR_WIDTH-1:0]   s_cmd_addr,
    input  wire [LEN_WIDTH-1:0]    s_cmd_len,
    input  wire                    s_cmd_valid,
    output wire                    s_cmd_ready,

    // Exactly s_cmd_len bytes per command, byte 0 first, beats full but the last (tlast)
    input  wire [DATA_WIDTH-1:0]   s_axis_tdata,
    input  wire [DATA_WIDTH/8-1:0] s_axis_tkeep,
    input  wire                    s_axis_tvalid,
    output wire                    s_axis_tready,
    input  wire                    s_axis_tlast,

    output wire [ID_WIDTH-1:0]     m_axi_awid,
    output wire [ADDR_WIDTH-1:0]   m_axi_awaddr,
    output wire [7:0]              m_axi_awlen,
    output wire [2:0]              m_axi_awsize,
    output wire [1:0]              m_axi_awburst,
    output wire                    m_axi_awlock,
    output wire [3:0]              m_axi_awcache,
    output wire [2:0]              m_axi_awprot,
    output wire                    m_axi_awvalid,
    input  wire                    m_axi_awready,
    output wire [DATA_WIDTH-1:0]   m_axi_wdata,
    output wire [DATA_WIDTH/8-1:0] m_axi_wstrb,
    output wire                    m_axi_wlast,
    output wire                    m_axi_wvalid,
    input  wire                    m_axi_wready,
    input  wire [ID_WIDTH-1:0]     m_axi_bid,
    input  wire [1:0]              m_axi_bresp,
    input  wire                    m_axi_bvalid,
    output wire                    m_axi_bready,

    // One cycle per finished command, in command order; error when any burst failed
    output reg                     status_valid,
    output reg                     status_error
);

localparam STRB_WIDTH = DATA_WIDTH / 8;
localparam OFFSET_WIDTH = $clog2(STRB_WIDTH);
localparam BURST_INDEX_WIDTH = $clog2(OUTSTANDING_BURSTS);

initial begin
    if (OUTSTANDING_BURSTS < 2 || (OUTSTANDING_BURSTS & (OUTSTANDING_BURSTS - 1)) != 0) begin
        $error("Error: OUTSTANDING_BURSTS must be a power of two, 2 or more (instance %m)");
        $finish;
    end
end

assign m_axi_awid    = {ID_WIDTH{1'b0}};
assign m_axi_awsize  = OFFSET_WIDTH[2:0];
assign m_axi_awburst = 2'b01;  // INCR
assign m_axi_awlock  = 1'b0;
assign m_axi_awcache = 4'b0011;
assign m_axi_awprot  = 3'b000;

// ---- Address side: each command cut into bursts ----

// Bursts issued whose data or response is still due, in issue order, with the command's offset:
// the realigner takes it with the first beat of the command's payload, when that burst is due.
reg [8:0]                  burst_beats [0:OUTSTANDING_BURSTS-1];
reg                        burst_ends_command [0:OUTSTANDING_BURSTS-1];
reg [OFFSET_WIDTH-1:0]     pending_shift [0:OUTSTANDING_BURSTS-1];
reg [BURST_INDEX_WIDTH:0]  issue_pointer, data_pointer, response_pointer;

wire                    bursts_full = issue_pointer - response_pointer == OUTSTANDING_BURSTS[BURST_INDEX_WIDTH:0];
wire [8:0]              next_burst_beats;
wire [OFFSET_WIDTH-1:0] next_burst_offset;
wire                    next_burst_last, next_burst_valid;
wire [OFFSET_WIDTH-1:0] payload_shift;

axi_burst_splitter #(
    .DATA_WIDTH(DATA_WIDTH),
    .ADDR_WIDTH(ADDR_WIDTH),
    .LEN_WIDTH(LEN_WIDTH),
    .MAX_BURST_BEATS(MAX_BURST_BEATS)
) splitter_inst (
    .clk(clk),
    .rst(rst),
    .s_cmd_addr(s_cmd_addr),
    .s_cmd_len(s_cmd_len),
    .s_cmd_valid(s_cmd_valid),
    .s_cmd_ready(s_cmd_ready),
    .cmd_offset(),
    .cmd_beats(),
    .m_burst_addr(m_axi_awaddr),
    .m_burst_beats(next_burst_beats),
    .m_burst_offset(next_burst_offset),
    .m_burst_last(next_burst_last),
    .m_burst_valid(next_burst_valid),
    .m_burst_ready(m_axi_awready && !bursts_full)
);

assign m_axi_awvalid = next_burst_valid && !bursts_full;
assign m_axi_awlen = next_burst_beats[7:0] - 8'd1;

always @(posedge clk) begin
    if (m_axi_awvalid && m_axi_awready) begin
        burst_beats[issue_pointer[BURST_INDEX_WIDTH-1:0]] <= next_burst_beats;
        burst_ends_command[issue_pointer[BURST_INDEX_WIDTH-1:0]] <= next_burst_last;
        pending_shift[issue_pointer[BURST_INDEX_WIDTH-1:0]] <= next_burst_offset;
        issue_pointer <= issue_pointer + 1'b1;
    end
    if (rst) begin
        issue_pointer <= {(BURST_INDEX_WIDTH+1){1'b0}};
    end
end

// ---- Data: realigned to the address, cut where each burst ends ----

wire [DATA_WIDTH-1:0] aligned_tdata;
wire [STRB_WIDTH-1:0] aligned_tkeep;
wire                  aligned_tvalid, aligned_tready, aligned_tlast;

assign payload_shift = pending_shift[data_pointer[BURST_INDEX_WIDTH-1:0]];

axis_realign #(
    .DATA_WIDTH(DATA_WIDTH)
) realign_inst (
    .clk(clk),
    .rst(rst),
    .s_shift(payload_shift),
    .s_axis_tdata(s_axis_tdata),
    .s_axis_tkeep(s_axis_tkeep),
    .s_axis_tvalid(s_axis_tvalid),
    .s_axis_tready(s_axis_tready),
    .s_axis_tlast(s_axis_tlast),
    .m_axis_tdata(aligned_tdata),
    .m_axis_tkeep(aligned_tkeep),
    .m_axis_tvalid(aligned_tvalid),
    .m_axis_tready(aligned_tready),
    .m_axis_tlast(aligned_tlast)
);

reg  [8:0] beat_in_burst;
wire       burst_addressed = data_pointer != issue_pointer;
wire       last_of_burst = beat_in_burst + 9'd1 == burst_beats[data_pointer[BURST_INDEX_WIDTH-1:0]];

assign m_axi_wdata    = aligned_tdata;
assign m_axi_wstrb    = aligned_tkeep;
assign m_axi_wlast    = last_of_burst;
assign m_axi_wvalid   = aligned_tvalid && burst_addressed;
assign aligned_tready = m_axi_wready && burst_addressed;

always @(posedge clk) begin
    if (m_axi_wvalid && m_axi_wready) begin
        beat_in_burst <= beat_in_burst + 9'd1;
        if (last_of_burst) begin
            beat_in_burst <= 9'd0;
            data_pointer <= data_pointer + 1'b1;
        end
    end
    if (rst) begin
        beat_in_burst <= 9'd0;
        data_pointer <= {(BURST_INDEX_WIDTH+1){1'b0}};
    end
end

// ---- Responses: one status per command ----

reg command_failed;

assign m_axi_bready = response_pointer != data_pointer;

always @(posedge clk) begin
    status_valid <= 1'b0;
    if (m_axi_bvalid && m_axi_bready) begin
        response_pointer <= response_pointer + 1'b1;
        if (burst_ends_command[response_pointer[BURST_INDEX_WIDTH-1:0]]) begin
            status_valid <= 1'b1;
            status_error <= command_failed || m_axi_bresp[1];
            command_failed <= 1'b0;
        end else begin
            command_failed <= command_failed || m_axi_bresp[1];
        end
    end
    if (rst) begin
        response_pointer <= {(BURST_INDEX_WIDTH+1){1'b0}};
        command_failed <= 1'b0;
        status_valid <= 1'b0;
        status_error <= 1'b0;
    end
end

endmodule

`resetall
