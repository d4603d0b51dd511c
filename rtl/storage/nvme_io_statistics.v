// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// NVMe SMART/Health I/O counters: Data Units Read and Written, Host Read and Write Commands
`resetall
`timescale 1ns / 1ps
`default_nettype none

// Facts from docs/reference/nvme.md and docs/storage.md (NVMe 1.4: the SMART/Health log page 02h):
// - Data Units Read (bytes 47:32) and Written (63:48) count 512-byte units moved by successful
//   Read and Write commands, reported in thousands and rounded up: 1 means 1 to 1000 units, 0 that
//   none moved. Write Zeroes, Flush, other opcodes and failed commands count nothing.
// - Host Read Commands (79:64) and Host Write Commands (95:80) count successful Reads and Writes.
// - Nothing is kept across reset.
// A command's units are its logical blocks (NLB + 1) times the block size in 512-byte units,
// io_blocks << (LBA_SHIFT - 9): up to 65536 << 3 = 524288, so one command may move many thousands.
// Each direction keeps a thousands counter and a remainder (0 to 999) of the units moved; the data
// units reported are the thousands, plus one while the remainder is not 0. No divider: a command's
// units are split into thousands and a remainder by a constant multiply and shift (units < 2^20:
// units / 1000 = units * 536871 >> 29 exactly, 536871 * 1000 - 2^29 = 88 <= 2^(29 - 20)) and
// registered (stage 1); the next edge adds both parts and the carry of the remainders (stage 2).
// Both stages take a command every cycle, so none is lost; every output shows a command two clock
// edges after the one that samples its io_done. The counters are 48 bits (the fields are 128) and
// wrap past 2^48 - 1 (2^48 thousand units is 144 EB).
module nvme_io_statistics #(
    // The namespace's logical block size, log2 bytes (9 to 12: 512 bytes to 4 KiB)
    parameter LBA_SHIFT = 9
) (
    input  wire         clk,
    input  wire         rst,

    input  wire         io_done,        // one cycle: an I/O command completed
    input  wire         io_read,        // it was a Read (at most one of io_read and io_write)
    input  wire         io_write,       // it was a Write
    input  wire         io_success,     // its status was 0
    input  wire [16:0]  io_blocks,      // logical blocks it moved (NLB + 1: 1 to 65536)

    output wire [47:0]  data_units_read,
    output wire [47:0]  data_units_written,
    output reg  [47:0]  host_read_commands,
    output reg  [47:0]  host_write_commands
);

initial begin
    if (LBA_SHIFT < 9 || LBA_SHIFT > 12) begin
        $error("Error: LBA_SHIFT must be 9 to 12 (instance %m)");
        $finish;
    end
end

// Stage 1: the command's units split into thousands (0 to 524) and a remainder (0 to 999)
wire [19:0] units = {3'd0, io_blocks} << (LBA_SHIFT - 9);
wire [39:0] units_scaled = units * 20'd536871;
wire [9:0]  units_thousands = units_scaled[38:29];
wire [19:0] units_thousands_bytes = {10'd0, units_thousands} * 20'd1000;
wire [19:0] units_left = units - units_thousands_bytes;

reg         split_read;         // a successful Read's units are in split_*
reg         split_write;        // a successful Write's
reg  [9:0]  split_thousands;
reg  [9:0]  split_remainder;

always @(posedge clk) begin
    split_read <= io_done && io_success && io_read;
    split_write <= io_done && io_success && io_write;
    split_thousands <= units_thousands;
    split_remainder <= units_left[9:0];
    if (rst) begin
        split_read <= 1'b0;
        split_write <= 1'b0;
    end
end

// Stage 2: each direction's remainder takes the command's, carrying a thousand when it reaches 1000
// (the sum is below 2000, so one subtraction of 1000, done in 10 bits, leaves 0 to 999)
reg  [47:0] read_thousands;
reg  [9:0]  read_remainder;
reg  [47:0] write_thousands;
reg  [9:0]  write_remainder;

wire [10:0] read_remainder_sum = {1'b0, read_remainder} + {1'b0, split_remainder};
wire        read_carry = read_remainder_sum >= 11'd1000;
wire [9:0]  read_remainder_next = read_carry ? read_remainder_sum[9:0] - 10'd1000 : read_remainder_sum[9:0];
wire [10:0] write_remainder_sum = {1'b0, write_remainder} + {1'b0, split_remainder};
wire        write_carry = write_remainder_sum >= 11'd1000;
wire [9:0]  write_remainder_next = write_carry ? write_remainder_sum[9:0] - 10'd1000 : write_remainder_sum[9:0];

always @(posedge clk) begin
    if (split_read) begin
        read_thousands <= read_thousands + {38'd0, split_thousands} + {47'd0, read_carry};
        read_remainder <= read_remainder_next;
        host_read_commands <= host_read_commands + 48'd1;
    end
    if (split_write) begin
        write_thousands <= write_thousands + {38'd0, split_thousands} + {47'd0, write_carry};
        write_remainder <= write_remainder_next;
        host_write_commands <= host_write_commands + 48'd1;
    end
    if (rst) begin
        read_thousands <= 48'd0;
        read_remainder <= 10'd0;
        host_read_commands <= 48'd0;
        write_thousands <= 48'd0;
        write_remainder <= 10'd0;
        host_write_commands <= 48'd0;
    end
end

// Rounded up: a part-filled thousand counts as one
assign data_units_read = read_thousands + {47'd0, read_remainder != 10'd0};
assign data_units_written = write_thousands + {47'd0, write_remainder != 10'd0};

endmodule

`resetall
