// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// AXI4-Lite window onto a buffer's beat-wide host port: 32-bit register accesses in, beats out
`resetall
`timescale 1ns / 1ps
`default_nettype none

// An all-reduce rank's buffer, read and written by the bring-up software over the register bus.
// The host port has no byte enables and answers a read a cycle after its address, so every
// access reads the beat that holds its address first: a read returns the addressed 32-bit lane;
// a write merges its strobed bytes into that lane and writes the whole beat back. One access at
// a time. Addresses past the buffer's end are answered SLVERR and touch nothing.
module axil_buffer_window #(
    // Width of the buffer's beat in bits (32 to 1024, a power of two)
    parameter DATA_WIDTH = 64,
    // Beats the buffer holds (a power of two)
    parameter BUFFER_BEATS = 1024,
    // Width of the window's byte address
    parameter ADDR_WIDTH = 15
) (
    input  wire                              clk,
    input  wire                              rst,
    input  wire [ADDR_WIDTH-1:0]             s_axil_awaddr,
    input  wire [2:0]                        s_axil_awprot,
    input  wire                              s_axil_awvalid,
    output wire                              s_axil_awready,
    input  wire [31:0]                       s_axil_wdata,
    input  wire [3:0]                        s_axil_wstrb,
    input  wire                              s_axil_wvalid,
    output wire                              s_axil_wready,
    output wire [1:0]                        s_axil_bresp,
    output wire                              s_axil_bvalid,
    input  wire                              s_axil_bready,
    input  wire [ADDR_WIDTH-1:0]             s_axil_araddr,
    input  wire [2:0]                        s_axil_arprot,
    input  wire                              s_axil_arvalid,
    output wire                              s_axil_arready,
    output reg  [31:0]                       s_axil_rdata,
    output wire [1:0]                        s_axil_rresp,
    output wire                              s_axil_rvalid,
    input  wire                              s_axil_rready,
    // The buffer's host port (read data valid the cycle after its address)
    output wire                              buffer_write_enable,
    output wire [$clog2(BUFFER_BEATS)-1:0]   buffer_address,
    output wire [DATA_WIDTH-1:0]             buffer_write_data,
    input  wire [DATA_WIDTH-1:0]             buffer_read_data
);

localparam BEAT_SHIFT = $clog2(DATA_WIDTH / 8);
localparam BEAT_ADDR_WIDTH = $clog2(BUFFER_BEATS);
localparam LANES = DATA_WIDTH / 32;
localparam LANE_WIDTH = LANES > 1 ? $clog2(LANES) : 1;
localparam [1:0] RESPONSE_OKAY = 2'b00, RESPONSE_SLVERR = 2'b10;

initial begin
    if (DATA_WIDTH < 32 || DATA_WIDTH > 1024 || (DATA_WIDTH & (DATA_WIDTH - 1)) != 0
            || (1 << BEAT_ADDR_WIDTH) != BUFFER_BEATS || BEAT_ADDR_WIDTH + BEAT_SHIFT > ADDR_WIDTH) begin
        $error("Error: DATA_WIDTH must be a power of two from 32 to 1024 and the buffer a power-of-two number of beats inside the window (instance %m)");
        $finish;
    end
end

// The access in hand: its beat is addressed while `fetching`, its read data arrives while `merging`
reg                       is_write, fetching, merging, in_range;
reg                       b_pending, r_pending;
reg [ADDR_WIDTH-1:0]      address;
reg [31:0]                write_lane;
reg [3:0]                 write_strobe;
reg [1:0]                 response;

wire idle = !fetching && !merging && !b_pending && !r_pending;
// Writes first: a read waits while the bus offers a write, so each kind stays in order
wire write_taken = idle && s_axil_awvalid && s_axil_wvalid;
wire read_taken = idle && s_axil_arvalid && !(s_axil_awvalid && s_axil_wvalid);

function in_buffer(input [ADDR_WIDTH-1:0] byte_address);
    in_buffer = (byte_address >> (BEAT_SHIFT + BEAT_ADDR_WIDTH)) == 0;
endfunction

function [LANE_WIDTH-1:0] lane_of(input [ADDR_WIDTH-1:0] byte_address);
    lane_of = LANES > 1 ? byte_address[2 +: LANE_WIDTH] : {LANE_WIDTH{1'b0}};
endfunction

function [DATA_WIDTH-1:0] merged(input [DATA_WIDTH-1:0] beat, input [31:0] data, input [3:0] strobe,
                                 input [LANE_WIDTH-1:0] lane);
    integer byte_index;
    begin
        merged = beat;
        for (byte_index = 0; byte_index < 4; byte_index = byte_index + 1) begin
            if (strobe[byte_index]) begin
                merged[lane * 32 + byte_index * 8 +: 8] = data[byte_index * 8 +: 8];
            end
        end
    end
endfunction

assign s_axil_awready = write_taken;
assign s_axil_wready = write_taken;
assign s_axil_arready = read_taken;
assign s_axil_bvalid = b_pending;
assign s_axil_bresp = response;
assign s_axil_rvalid = r_pending;
assign s_axil_rresp = response;

assign buffer_address = address[BEAT_SHIFT +: BEAT_ADDR_WIDTH];
assign buffer_write_enable = merging && is_write;
assign buffer_write_data = merged(buffer_read_data, write_lane, write_strobe, lane_of(address));

always @(posedge clk) begin
    if (write_taken || read_taken) begin
        is_write <= write_taken;
        address <= write_taken ? s_axil_awaddr : s_axil_araddr;
        in_range <= in_buffer(write_taken ? s_axil_awaddr : s_axil_araddr);
        fetching <= 1'b1;
        write_lane <= s_axil_wdata;
        write_strobe <= s_axil_wstrb;
    end
    if (fetching) begin
        fetching <= 1'b0;
        merging <= in_range;
        if (!in_range) begin
            response <= RESPONSE_SLVERR;
            b_pending <= is_write;
            r_pending <= !is_write;
            s_axil_rdata <= 32'd0;
        end
    end
    if (merging) begin
        merging <= 1'b0;
        response <= RESPONSE_OKAY;
        b_pending <= is_write;
        r_pending <= !is_write;
        s_axil_rdata <= buffer_read_data[lane_of(address) * 32 +: 32];
    end
    if (s_axil_bvalid && s_axil_bready) begin
        b_pending <= 1'b0;
    end
    if (s_axil_rvalid && s_axil_rready) begin
        r_pending <= 1'b0;
    end
    if (rst) begin
        fetching <= 1'b0;
        merging <= 1'b0;
        b_pending <= 1'b0;
        r_pending <= 1'b0;
    end
end

endmodule

`resetall
