// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Board link bridge: register reads and writes framed on a byte stream, executed on AXI4-Lite
`resetall
`timescale 1ns / 1ps
`default_nettype none

// Frames as in src/dpuv/models/link_protocol.py: requests 0xA5 | seq | op | count | address | data | CRC,
// responses 0x5A | seq | status | count | data | CRC, CRC-32 over every byte after the sync.
// A frame that stops arriving for TIMEOUT_CYCLES is abandoned, so a dropped byte cannot wedge
// the parser; the host's retry then finds it hunting for the next sync byte.
module link_bridge #(
    // Width of the AXI4-Lite address driven (the frame's 32-bit address, truncated)
    parameter ADDR_WIDTH = 16,
    // Cycles without a byte, inside a frame, after which the frame is dropped
    parameter TIMEOUT_CYCLES = 4096
) (
    input  wire                  clk,
    input  wire                  rst,

    input  wire [7:0]            s_axis_tdata,
    input  wire                  s_axis_tvalid,
    output wire                  s_axis_tready,

    output reg  [7:0]            m_axis_tdata,
    output reg                   m_axis_tvalid,
    input  wire                  m_axis_tready,

    output wire [ADDR_WIDTH-1:0] m_axil_awaddr,
    output wire [2:0]            m_axil_awprot,
    output reg                   m_axil_awvalid,
    input  wire                  m_axil_awready,
    output wire [31:0]           m_axil_wdata,
    output wire [3:0]            m_axil_wstrb,
    output reg                   m_axil_wvalid,
    input  wire                  m_axil_wready,
    input  wire [1:0]            m_axil_bresp,
    input  wire                  m_axil_bvalid,
    output wire                  m_axil_bready,
    output wire [ADDR_WIDTH-1:0] m_axil_araddr,
    output wire [2:0]            m_axil_arprot,
    output reg                   m_axil_arvalid,
    input  wire                  m_axil_arready,
    input  wire [31:0]           m_axil_rdata,
    input  wire [1:0]            m_axil_rresp,
    input  wire                  m_axil_rvalid,
    output wire                  m_axil_rready,

    // One-cycle events, for counters
    output reg                   event_frame_done,
    output reg                   event_bad_crc,
    output reg                   event_bad_request,
    output reg                   event_timeout
);

localparam [7:0] REQUEST_SYNC = 8'hA5, RESPONSE_SYNC = 8'h5A;
localparam [7:0] OP_READ = 8'd1, OP_WRITE = 8'd2;
localparam [7:0] STATUS_OK = 8'd0, STATUS_SLVERR = 8'd1, STATUS_DECERR = 8'd2,
                 STATUS_BAD_CRC = 8'd3, STATUS_BAD_REQUEST = 8'd4;
localparam MAX_WORDS = 16;

localparam [2:0] STATE_SYNC = 3'd0, STATE_HEADER = 3'd1, STATE_DATA = 3'd2, STATE_CRC = 3'd3,
                 STATE_EXECUTE = 3'd4, STATE_WAIT = 3'd5, STATE_RESPOND = 3'd6;

initial begin
    if (ADDR_WIDTH < 8 || ADDR_WIDTH > 32 || TIMEOUT_CYCLES < 16) begin
        $error("Error: ADDR_WIDTH must be 8 to 32 and TIMEOUT_CYCLES at least 16 (instance %m)");
        $finish;
    end
end

reg [2:0]  state;
reg [7:0]  byte_index;            // position inside the current part of the frame
reg [7:0]  seq, op, count;
reg [31:0] address;
reg [31:0] words [0:MAX_WORDS-1];
reg [23:0] received_crc;     // the first three CRC bytes; the fourth is compared as it arrives
reg [7:0]  status, words_done;
reg [4:0]  word_index;
reg [31:0] idle_cycles;

wire [1:0] address_byte = byte_index[1:0] - 2'd3;  // header bytes 3 to 6 carry the address
wire in_frame = state == STATE_HEADER || state == STATE_DATA || state == STATE_CRC;
wire byte_in = s_axis_tvalid && s_axis_tready;
wire byte_out = m_axis_tvalid && m_axis_tready;
wire [7:0] data_bytes = op == OP_WRITE ? {count[5:0], 2'b00} : 8'd0;
// The last word must also lie inside the bus's address range.
wire [32:0] last_word_address = {1'b0, address} + {23'd0, count, 2'b00} - 33'd4;
wire request_well_formed = (op == OP_READ || op == OP_WRITE) && count != 0 && count <= MAX_WORDS
                           && address[1:0] == 2'b00 && (last_word_address >> ADDR_WIDTH) == 0;

assign s_axis_tready = state == STATE_SYNC || in_frame;

// CRC of the request body as it arrives, and of the response body as it leaves.
wire [31:0] request_crc, response_crc;
wire        response_body_byte = byte_out && byte_index != 0 && byte_index < 8'd4 + {words_done[5:0], 2'b00};

crc32 #(.DATA_WIDTH(8)) request_crc_inst (
    .clk(clk),
    .rst(rst),
    .data(s_axis_tdata),
    .keep(1'b1),
    .valid(byte_in && (state == STATE_HEADER || state == STATE_DATA)),
    .start(state == STATE_HEADER && byte_index == 0),
    .crc(request_crc)
);

crc32 #(.DATA_WIDTH(8)) response_crc_inst (
    .clk(clk),
    .rst(rst),
    .data(m_axis_tdata),
    .keep(1'b1),
    .valid(response_body_byte),
    .start(byte_index == 8'd1),
    .crc(response_crc)
);

wire [ADDR_WIDTH-1:0] word_address = address[ADDR_WIDTH-1:0] + {{ADDR_WIDTH-7{1'b0}}, word_index, 2'b00};
assign m_axil_awaddr = word_address;
assign m_axil_araddr = word_address;
assign m_axil_awprot = 3'b000;
assign m_axil_arprot = 3'b000;
assign m_axil_wdata = words[word_index[3:0]];
assign m_axil_wstrb = 4'hF;
assign m_axil_bready = state == STATE_WAIT && op == OP_WRITE;
assign m_axil_rready = state == STATE_WAIT && op == OP_READ;

// The byte on offer while responding, by position: header, words read, then the CRC.
reg [7:0] response_byte;
wire [7:0] payload_end = 8'd4 + {words_done[5:0], 2'b00};
wire [5:0] payload_index = byte_index[5:0] - 6'd4;
wire [1:0] crc_index = byte_index[1:0] - payload_end[1:0];
always @* begin
    if (byte_index == 0) response_byte = RESPONSE_SYNC;
    else if (byte_index == 1) response_byte = seq;
    else if (byte_index == 2) response_byte = status;
    else if (byte_index == 3) response_byte = words_done;
    else if (byte_index < payload_end) response_byte = words[payload_index[5:2]][8*payload_index[1:0] +: 8];
    else response_byte = response_crc[8*crc_index +: 8];
end

function [7:0] error_status(input [1:0] response);
    error_status = response == 2'b11 ? STATUS_DECERR : STATUS_SLVERR;
endfunction

always @(posedge clk) begin
    event_frame_done <= 1'b0;
    event_bad_crc <= 1'b0;
    event_bad_request <= 1'b0;
    event_timeout <= 1'b0;
    idle_cycles <= byte_in ? 32'd0 : idle_cycles + 1;

    case (state)
        STATE_SYNC: begin
            if (byte_in && s_axis_tdata == REQUEST_SYNC) begin
                state <= STATE_HEADER;
                byte_index <= 8'd0;
            end
        end
        STATE_HEADER: begin
            if (byte_in) begin
                case (byte_index)
                    8'd0: seq <= s_axis_tdata;
                    8'd1: op <= s_axis_tdata;
                    8'd2: count <= s_axis_tdata;
                    default: address[8*address_byte +: 8] <= s_axis_tdata;
                endcase
                byte_index <= byte_index + 1'b1;
                if (byte_index == 8'd6) begin
                    byte_index <= 8'd0;
                    state <= (op == OP_WRITE && count != 0 && count <= MAX_WORDS) ? STATE_DATA : STATE_CRC;
                end
            end
        end
        STATE_DATA: begin
            if (byte_in) begin
                words[byte_index[5:2]][8*byte_index[1:0] +: 8] <= s_axis_tdata;
                byte_index <= byte_index + 1'b1;
                if (byte_index + 1'b1 == data_bytes) begin
                    byte_index <= 8'd0;
                    state <= STATE_CRC;
                end
            end
        end
        STATE_CRC: begin
            if (byte_in) begin
                received_crc[8*byte_index[1:0] +: 8] <= s_axis_tdata;
                byte_index <= byte_index + 1'b1;
                if (byte_index == 8'd3) begin
                    byte_index <= 8'd0;
                    words_done <= 8'd0;
                    word_index <= 5'd0;
                    if ({s_axis_tdata, received_crc[23:0]} != request_crc) begin
                        status <= STATUS_BAD_CRC;
                        event_bad_crc <= 1'b1;
                        state <= STATE_RESPOND;
                    end else if (!request_well_formed) begin
                        status <= STATUS_BAD_REQUEST;
                        event_bad_request <= 1'b1;
                        state <= STATE_RESPOND;
                    end else begin
                        status <= STATUS_OK;
                        state <= STATE_EXECUTE;
                    end
                end
            end
        end
        STATE_EXECUTE: begin
            // One word per register access; the response leaves once every word is done or
            // the bus answers an error.
            m_axil_arvalid <= op == OP_READ;
            m_axil_awvalid <= op == OP_WRITE;
            m_axil_wvalid <= op == OP_WRITE;
            state <= STATE_WAIT;
        end
        STATE_WAIT: begin
            if (m_axil_arvalid && m_axil_arready) m_axil_arvalid <= 1'b0;
            if (m_axil_awvalid && m_axil_awready) m_axil_awvalid <= 1'b0;
            if (m_axil_wvalid && m_axil_wready) m_axil_wvalid <= 1'b0;
            if ((op == OP_READ && m_axil_rvalid) || (op == OP_WRITE && m_axil_bvalid)) begin
                if (op == OP_READ) words[word_index[3:0]] <= m_axil_rdata;
                if ((op == OP_READ ? m_axil_rresp : m_axil_bresp) != 2'b00) begin
                    status <= error_status(op == OP_READ ? m_axil_rresp : m_axil_bresp);
                    state <= STATE_RESPOND;
                end else begin
                    word_index <= word_index + 1'b1;
                    if (op == OP_READ) words_done <= words_done + 1'b1;
                    state <= ({3'd0, word_index} + 8'd1 == count) ? STATE_RESPOND : STATE_EXECUTE;
                end
            end
        end
        STATE_RESPOND: begin
            m_axis_tvalid <= 1'b1;
            if (byte_out) begin
                byte_index <= byte_index + 1'b1;
                if (byte_index == payload_end + 8'd3) begin
                    m_axis_tvalid <= 1'b0;
                    event_frame_done <= 1'b1;
                    state <= STATE_SYNC;
                end
            end
        end
        default: state <= STATE_SYNC;
    endcase

    if (in_frame && idle_cycles >= TIMEOUT_CYCLES) begin
        state <= STATE_SYNC;
        event_timeout <= 1'b1;
    end

    if (rst) begin
        state <= STATE_SYNC;
        m_axis_tvalid <= 1'b0;
        m_axil_arvalid <= 1'b0;
        m_axil_awvalid <= 1'b0;
        m_axil_wvalid <= 1'b0;
        idle_cycles <= 32'd0;
        byte_index <= 8'd0;
        words_done <= 8'd0;
    end
end

always @* m_axis_tdata = response_byte;

endmodule

`resetall
