// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// AXI4-Lite to AXI4 bridge: each 32-bit register access becomes one single-beat AXI4 access
`resetall
`timescale 1ns / 1ps
`default_nettype none

// A memory reached over the register bus (a board's host memory, read and written by the bring-up
// software through the link): each access is one beat of the memory's full width at the beat that
// holds the address, its 32-bit lane picked by the address and enabled by the write strobes
// moved into that lane. One access at a time; the memory's response passes through unchanged.
module axil_to_axi #(
    // Width of the AXI4 data bus in bits (32 to 512, a power of two)
    parameter DATA_WIDTH = 64,
    // Width of the byte address on both sides
    parameter ADDR_WIDTH = 16,
    // Width of the AXI4 ID (always 0 here)
    parameter ID_WIDTH = 4
) (
    input  wire                    clk,
    input  wire                    rst,

    input  wire [ADDR_WIDTH-1:0]   s_axil_awaddr,
    input  wire [2:0]              s_axil_awprot,
    input  wire                    s_axil_awvalid,
    output wire                    s_axil_awready,
    input  wire [31:0]             s_axil_wdata,
    input  wire [3:0]              s_axil_wstrb,
    input  wire                    s_axil_wvalid,
    output wire                    s_axil_wready,
    output wire [1:0]              s_axil_bresp,
    output wire                    s_axil_bvalid,
    input  wire                    s_axil_bready,
    input  wire [ADDR_WIDTH-1:0]   s_axil_araddr,
    input  wire [2:0]              s_axil_arprot,
    input  wire                    s_axil_arvalid,
    output wire                    s_axil_arready,
    output wire [31:0]             s_axil_rdata,
    output wire [1:0]              s_axil_rresp,
    output wire                    s_axil_rvalid,
    input  wire                    s_axil_rready,

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
    output wire [ID_WIDTH-1:0]     m_axi_arid,
    output wire [ADDR_WIDTH-1:0]   m_axi_araddr,
    output wire [7:0]              m_axi_arlen,
    output wire [2:0]              m_axi_arsize,
    output wire [1:0]              m_axi_arburst,
    output wire                    m_axi_arlock,
    output wire [3:0]              m_axi_arcache,
    output wire [2:0]              m_axi_arprot,
    output wire                    m_axi_arvalid,
    input  wire                    m_axi_arready,
    input  wire [ID_WIDTH-1:0]     m_axi_rid,
    input  wire [DATA_WIDTH-1:0]   m_axi_rdata,
    input  wire [1:0]              m_axi_rresp,
    input  wire                    m_axi_rlast,
    input  wire                    m_axi_rvalid,
    output wire                    m_axi_rready
);

localparam BEAT_BYTES = DATA_WIDTH / 8;
localparam BEAT_SHIFT = $clog2(BEAT_BYTES);
localparam LANES = DATA_WIDTH / 32;
localparam LANE_WIDTH = LANES > 1 ? $clog2(LANES) : 1;

initial begin
    if (DATA_WIDTH < 32 || DATA_WIDTH > 512 || (DATA_WIDTH & (DATA_WIDTH - 1)) != 0) begin
        $error("Error: DATA_WIDTH must be a power of two from 32 to 512 (instance %m)");
        $finish;
    end
end

function [LANE_WIDTH-1:0] lane_of(input [ADDR_WIDTH-1:0] address);
    lane_of = LANES > 1 ? address[2 +: LANE_WIDTH] : {LANE_WIDTH{1'b0}};
endfunction

// ---- Writes: address and data taken together, one beat out, the response back ----

reg                  write_busy, aw_sent, w_sent, b_pending;
reg [ADDR_WIDTH-1:0] write_address;
reg [31:0]           write_data;
reg [3:0]            write_strobe;
reg [1:0]            write_response;

wire write_taken = s_axil_awvalid && s_axil_wvalid && !write_busy && !b_pending;
assign s_axil_awready = write_taken;
assign s_axil_wready = write_taken;

assign m_axi_awid = {ID_WIDTH{1'b0}};
assign m_axi_awaddr = {write_address[ADDR_WIDTH-1:BEAT_SHIFT], {BEAT_SHIFT{1'b0}}};
assign m_axi_awlen = 8'd0;
assign m_axi_awsize = BEAT_SHIFT[2:0];
assign m_axi_awburst = 2'b01;
assign m_axi_awlock = 1'b0;
assign m_axi_awcache = 4'b0011;
assign m_axi_awprot = 3'b000;
assign m_axi_awvalid = write_busy && !aw_sent;
assign m_axi_wdata = {LANES{write_data}};
assign m_axi_wstrb = {{(BEAT_BYTES-4){1'b0}}, write_strobe} << (4 * lane_of(write_address));
assign m_axi_wlast = 1'b1;
assign m_axi_wvalid = write_busy && !w_sent;
assign m_axi_bready = write_busy && aw_sent && w_sent;

assign s_axil_bvalid = b_pending;
assign s_axil_bresp = write_response;

always @(posedge clk) begin
    if (write_taken) begin
        write_busy <= 1'b1;
        aw_sent <= 1'b0;
        w_sent <= 1'b0;
        write_address <= s_axil_awaddr;
        write_data <= s_axil_wdata;
        write_strobe <= s_axil_wstrb;
    end
    if (m_axi_awvalid && m_axi_awready) begin
        aw_sent <= 1'b1;
    end
    if (m_axi_wvalid && m_axi_wready) begin
        w_sent <= 1'b1;
    end
    if (m_axi_bvalid && m_axi_bready) begin
        write_busy <= 1'b0;
        b_pending <= 1'b1;
        write_response <= m_axi_bresp;
    end
    if (s_axil_bvalid && s_axil_bready) begin
        b_pending <= 1'b0;
    end
    if (rst) begin
        write_busy <= 1'b0;
        aw_sent <= 1'b0;
        w_sent <= 1'b0;
        b_pending <= 1'b0;
    end
end

// ---- Reads: one beat in, its lane out ----

reg                  read_busy, ar_sent, r_pending;
reg [ADDR_WIDTH-1:0] read_address;
reg [31:0]           read_data;
reg [1:0]            read_response;

assign s_axil_arready = !read_busy && !r_pending;

assign m_axi_arid = {ID_WIDTH{1'b0}};
assign m_axi_araddr = {read_address[ADDR_WIDTH-1:BEAT_SHIFT], {BEAT_SHIFT{1'b0}}};
assign m_axi_arlen = 8'd0;
assign m_axi_arsize = BEAT_SHIFT[2:0];
assign m_axi_arburst = 2'b01;
assign m_axi_arlock = 1'b0;
assign m_axi_arcache = 4'b0011;
assign m_axi_arprot = 3'b000;
assign m_axi_arvalid = read_busy && !ar_sent;
assign m_axi_rready = read_busy && ar_sent;

assign s_axil_rvalid = r_pending;
assign s_axil_rdata = read_data;
assign s_axil_rresp = read_response;

always @(posedge clk) begin
    if (s_axil_arvalid && s_axil_arready) begin
        read_busy <= 1'b1;
        ar_sent <= 1'b0;
        read_address <= s_axil_araddr;
    end
    if (m_axi_arvalid && m_axi_arready) begin
        ar_sent <= 1'b1;
    end
    if (m_axi_rvalid && m_axi_rready) begin
        read_busy <= 1'b0;
        r_pending <= 1'b1;
        read_data <= m_axi_rdata[32 * lane_of(read_address) +: 32];
        read_response <= m_axi_rresp;
    end
    if (s_axil_rvalid && s_axil_rready) begin
        r_pending <= 1'b0;
    end
    if (rst) begin
        read_busy <= 1'b0;
        ar_sent <= 1'b0;
        r_pending <= 1'b0;
    end
end

endmodule

`resetall
