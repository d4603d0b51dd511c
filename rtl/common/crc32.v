// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// CRC-32 (IEEE 802.3, reflected, as zlib.crc32) over a stream of beats with byte enables
`resetall
`timescale 1ns / 1ps
`default_nettype none

module crc32 #(
    // Width of data in bits (a multiple of 8); byte 0 is data[7:0], first on the wire
    parameter DATA_WIDTH = 64,
    // Width of the byte enables: one per byte of data
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    // Register state a message starts from: all ones for zlib.crc32; another value continues a
    // CRC over an implied prefix (the RoCEv2 ICRC starts after eight 0xFF bytes: 32'hDEBB20E3)
    parameter [31:0] INITIAL_STATE = 32'hFFFFFFFF
) (
    input  wire                  clk,
    input  wire                  rst,

    input  wire [DATA_WIDTH-1:0] data,
    // Only enabled bytes enter the CRC; holes are allowed and skipped
    input  wire [KEEP_WIDTH-1:0] keep,
    input  wire                  valid,
    // With valid: this beat opens a new message, the CRC restarts from its initial value
    input  wire                  start,

    // The CRC of every enabled byte since the last start, final XOR applied (zlib.crc32 value)
    output wire [31:0]           crc
);

// Reflected form of the IEEE 802.3 polynomial 0x04C11DB7
localparam [31:0] POLYNOMIAL_REFLECTED = 32'hEDB88320;

initial begin
    if (DATA_WIDTH % 8 != 0 || KEEP_WIDTH * 8 != DATA_WIDTH) begin
        $error("Error: DATA_WIDTH must be a multiple of 8 and KEEP_WIDTH = DATA_WIDTH/8 (instance %m)");
        $finish;
    end
end

// Bit-serial definition unrolled over the whole beat; synthesis folds it into XOR trees.
function [31:0] next_state(input [31:0] state, input [DATA_WIDTH-1:0] beat_data, input [KEEP_WIDTH-1:0] beat_keep);
    integer byte_index, bit_index;
    reg [31:0] value;
    begin
        value = state;
        for (byte_index = 0; byte_index < KEEP_WIDTH; byte_index = byte_index + 1) begin
            if (beat_keep[byte_index]) begin
                for (bit_index = 0; bit_index < 8; bit_index = bit_index + 1) begin
                    if (value[0] ^ beat_data[byte_index*8 + bit_index]) begin
                        value = (value >> 1) ^ POLYNOMIAL_REFLECTED;
                    end else begin
                        value = value >> 1;
                    end
                end
            end
        end
        next_state = value;
    end
endfunction

reg [31:0] state;

assign crc = ~state;

always @(posedge clk) begin
    if (valid) begin
        state <= next_state(start ? INITIAL_STATE : state, data, keep);
    end
    if (rst) begin
        state <= INITIAL_STATE;
    end
end

endmodule

`resetall
