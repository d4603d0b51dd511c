// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// AXI burst splitter: a byte range cut into beat-aligned INCR bursts that never cross 4 KiB
`resetall
`timescale 1ns / 1ps
`default_nettype none

// The address side shared by axi_dma_read and axi_dma_write. A command (address, byte length)
// becomes bursts of at most MAX_BURST_BEATS beats, each ending at a 4 KiB boundary at the latest
// (AXI4 forbids crossing one), one presented at a time until taken. While a command is being
// offered, cmd_offset and cmd_beats describe it, so the data side can record its shape in the
// same cycle it is accepted.
module axi_burst_splitter #(
    // Width of the data bus in bits (a power of two, 32 to 1024)
    parameter DATA_WIDTH = 64,
    // Width of byte addresses
    parameter ADDR_WIDTH = 64,
    // Width of the byte length of one command
    parameter LEN_WIDTH = 16,
    // Longest burst in beats (1 to 256)
    parameter MAX_BURST_BEATS = 256
) (
    input  wire                          clk,
    input  wire                          rst,

    input  wire [ADDR_WIDTH-1:0]         s_cmd_addr,
    input  wire [LEN_WIDTH-1:0]          s_cmd_len,
    input  wire                          s_cmd_valid,
    output wire                          s_cmd_ready,
    // Lane of the offered command's first byte, and the beats its bytes span
    output wire [$clog2(DATA_WIDTH/8)-1:0] cmd_offset,
    output wire [LEN_WIDTH:0]            cmd_beats,

    output reg  [ADDR_WIDTH-1:0]         m_burst_addr,
    output reg  [8:0]                    m_burst_beats,
    // Lane of its command's first byte (the same for every burst of the command)
    output reg  [$clog2(DATA_WIDTH/8)-1:0] m_burst_offset,
    // The burst is its command's last
    output reg                           m_burst_last,
    output reg                           m_burst_valid,
    input  wire                          m_burst_ready
);

localparam STRB_WIDTH = DATA_WIDTH / 8;
localparam OFFSET_WIDTH = $clog2(STRB_WIDTH);
localparam BEAT_COUNT_WIDTH = LEN_WIDTH + 1;
localparam PAGE_BEATS = 4096 / STRB_WIDTH;
localparam PAGE_OFFSET_WIDTH = 12 - OFFSET_WIDTH;    // a beat's index within its 4 KiB page

initial begin
    if (DATA_WIDTH < 32 || DATA_WIDTH > 1024 || (DATA_WIDTH & (DATA_WIDTH - 1)) != 0) begin
        $error("Error: DATA_WIDTH must be a power of two from 32 to 1024 (instance %m)");
        $finish;
    end
    if (MAX_BURST_BEATS < 1 || MAX_BURST_BEATS > 256) begin
        $error("Error: MAX_BURST_BEATS must be 1 to 256 (instance %m)");
        $finish;
    end
end

reg                        command_active;
reg [ADDR_WIDTH-1:0]       burst_address;
reg [OFFSET_WIDTH-1:0]     command_offset;
reg [BEAT_COUNT_WIDTH-1:0] beats_left;
reg [BEAT_COUNT_WIDTH-1:0] burst_limit;

assign s_cmd_ready = !command_active;
assign cmd_offset = s_cmd_addr[OFFSET_WIDTH-1:0];
assign cmd_beats = ({1'b0, s_cmd_len} + {{(BEAT_COUNT_WIDTH-OFFSET_WIDTH){1'b0}}, cmd_offset}
                    + STRB_WIDTH[BEAT_COUNT_WIDTH-1:0] - 1'b1) >> OFFSET_WIDTH;

function [BEAT_COUNT_WIDTH-1:0] beats_to_page_end(input [PAGE_OFFSET_WIDTH-1:0] page_offset_beats);
    beats_to_page_end = PAGE_BEATS[BEAT_COUNT_WIDTH-1:0]
                        - {{(BEAT_COUNT_WIDTH-PAGE_OFFSET_WIDTH){1'b0}}, page_offset_beats};
endfunction

// The longest burst that may start at a beat of a page: to the page's end, MAX_BURST_BEATS at most
function [BEAT_COUNT_WIDTH-1:0] burst_limit_at(input [PAGE_OFFSET_WIDTH-1:0] page_offset_beats);
    burst_limit_at = beats_to_page_end(page_offset_beats) > MAX_BURST_BEATS[BEAT_COUNT_WIDTH-1:0]
                     ? MAX_BURST_BEATS[BEAT_COUNT_WIDTH-1:0] : beats_to_page_end(page_offset_beats);
endfunction

// Each burst is min(beats left, burst_limit), where burst_limit is registered with the address
// it belongs to: the compare with the beats left, the length's choice and the next address then
// run side by side in one cycle instead of one after another (at 512 bits the chain of them was
// the RDMA engine's longest path). A burst that is not its command's last is burst_limit long,
// so it ends at the page's end when that comes within MAX_BURST_BEATS and is MAX_BURST_BEATS
// long otherwise: the next address is the next page's first byte or the longest burst on, both
// straight from the register, and no length is added to it.
wire [PAGE_OFFSET_WIDTH-1:0] page_offset_beats = burst_address[11:OFFSET_WIDTH];
wire                         page_end_within_burst =
    beats_to_page_end(page_offset_beats) <= MAX_BURST_BEATS[BEAT_COUNT_WIDTH-1:0];
wire [ADDR_WIDTH-1:0]        next_page_address = {burst_address[ADDR_WIDTH-1:12] + 1'b1, 12'd0};
localparam [ADDR_WIDTH-1:0]  LONGEST_BURST_BYTES = MAX_BURST_BEATS * STRB_WIDTH;
wire [ADDR_WIDTH-1:0]        address_after_longest_burst = burst_address + LONGEST_BURST_BYTES;
localparam                   LONGEST_BURST_PAGE_BEATS = MAX_BURST_BEATS % PAGE_BEATS;
wire [PAGE_OFFSET_WIDTH-1:0] page_offset_after_longest_burst =
    page_offset_beats + LONGEST_BURST_PAGE_BEATS[PAGE_OFFSET_WIDTH-1:0];
wire                         burst_is_last = beats_left <= burst_limit;
// (a last burst's beats_left is within burst_limit, at most 256)
wire [8:0]                   burst_beats = burst_is_last ? beats_left[8:0] : burst_limit[8:0];

always @(posedge clk) begin
    if (m_burst_valid && m_burst_ready) begin
        m_burst_valid <= 1'b0;
    end
    if (s_cmd_valid && s_cmd_ready) begin
        command_active <= 1'b1;
        burst_address <= {s_cmd_addr[ADDR_WIDTH-1:OFFSET_WIDTH], {OFFSET_WIDTH{1'b0}}};
        beats_left <= cmd_beats;
        burst_limit <= burst_limit_at(s_cmd_addr[11:OFFSET_WIDTH]);
        command_offset <= cmd_offset;
    end else if (command_active && (!m_burst_valid || m_burst_ready)) begin
        m_burst_addr <= burst_address;
        m_burst_beats <= burst_beats;
        m_burst_offset <= command_offset;
        m_burst_last <= burst_is_last;
        m_burst_valid <= 1'b1;
        // What follows matters only when the burst is not the command's last
        burst_address <= page_end_within_burst ? next_page_address : address_after_longest_burst;
        burst_limit <= page_end_within_burst ? burst_limit_at({PAGE_OFFSET_WIDTH{1'b0}})
                                             : burst_limit_at(page_offset_after_longest_burst);
        beats_left <= beats_left - burst_limit;
        if (burst_is_last) begin
            command_active <= 1'b0;
        end
    end
    if (rst) begin
        command_active <= 1'b0;
        m_burst_valid <= 1'b0;
    end
end

`ifdef FORMAL
// For the proof in tb/formal (read_verilog -formal defines FORMAL): while a command is split its
// address stays beat-aligned, beats remain and the burst limit is the address's. Stated here
// because the harness cannot see inside, and k-induction would otherwise start from a misaligned
// address, or a limit, no command produces.
always @(*) begin
    if (!rst && command_active) begin
        assert(burst_address[OFFSET_WIDTH-1:0] == 0 && beats_left != 0);
        assert(burst_limit == burst_limit_at(page_offset_beats));
    end
end
`endif

endmodule

`resetall
