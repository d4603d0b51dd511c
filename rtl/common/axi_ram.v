// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// AXI4 slave RAM: a node's memory, one beat per cycle on reads and writes at once
`resetall
`timescale 1ns / 1ps
`default_nettype none

// The memory is a plain array of DATA_WIDTH-bit words, written byte by byte under wstrb and read
// through a register, so synthesis infers block RAM with byte enables. Reads and writes are two
// independent machines on two ports of that RAM.
//
// Bursts: INCR of 1 to 256 beats, of any AxSIZE up to the bus width (a narrow beat uses the lanes
// its address selects, as AXI4 places them; the master's wstrb says which). Each burst's whole
// extent is checked when its address is taken: FIXED, WRAP, the reserved burst type and an
// AxSIZE wider than the bus answer SLVERR; a burst with any byte outside
// [BASE_ADDRESS, BASE_ADDRESS + SIZE_BYTES) answers DECERR. Either way every beat of the burst
// is still taken (writes) or sent (reads, data meaningless), and nothing is written.
//
// Throughput: each channel holds the burst in progress and one address waiting behind it, so the
// next burst's first beat follows the last beat of the one before in the next cycle. Write
// responses leave through two registers, so a master that holds bready low stalls only the last
// beat of the burst after next. Responses and read data go out in address order, each with its
// burst's ID. A burst ends by its own beat count; wlast is not looked at.
module axi_ram #(
    // Width of the data bus in bits (a power of two, 64 to 512)
    parameter DATA_WIDTH = 64,
    // Width of byte addresses on the port; the RAM decodes all of them against BASE_ADDRESS
    parameter ADDR_WIDTH = 64,
    // Width of awid/bid and arid/rid
    parameter ID_WIDTH = 8,
    // Bytes of memory (a power of two, at least two words of DATA_WIDTH)
    parameter SIZE_BYTES = 65536,
    // Address of the first byte (a multiple of DATA_WIDTH/8; need not be of SIZE_BYTES or 4 KiB)
    parameter [ADDR_WIDTH-1:0] BASE_ADDRESS = 0
) (
    input  wire                    clk,
    input  wire                    rst,

    input  wire [ID_WIDTH-1:0]     s_axi_awid,
    input  wire [ADDR_WIDTH-1:0]   s_axi_awaddr,
    input  wire [7:0]              s_axi_awlen,
    input  wire [2:0]              s_axi_awsize,
    input  wire [1:0]              s_axi_awburst,
    input  wire                    s_axi_awlock,
    input  wire [3:0]              s_axi_awcache,
    input  wire [2:0]              s_axi_awprot,
    input  wire                    s_axi_awvalid,
    output wire                    s_axi_awready,
    input  wire [DATA_WIDTH-1:0]   s_axi_wdata,
    input  wire [DATA_WIDTH/8-1:0] s_axi_wstrb,
    input  wire                    s_axi_wlast,
    input  wire                    s_axi_wvalid,
    output wire                    s_axi_wready,
    output wire [ID_WIDTH-1:0]     s_axi_bid,
    output wire [1:0]              s_axi_bresp,
    output wire                    s_axi_bvalid,
    input  wire                    s_axi_bready,

    input  wire [ID_WIDTH-1:0]     s_axi_arid,
    input  wire [ADDR_WIDTH-1:0]   s_axi_araddr,
    input  wire [7:0]              s_axi_arlen,
    input  wire [2:0]              s_axi_arsize,
    input  wire [1:0]              s_axi_arburst,
    input  wire                    s_axi_arlock,
    input  wire [3:0]              s_axi_arcache,
    input  wire [2:0]              s_axi_arprot,
    input  wire                    s_axi_arvalid,
    output wire                    s_axi_arready,
    output wire [ID_WIDTH-1:0]     s_axi_rid,
    output wire [DATA_WIDTH-1:0]   s_axi_rdata,
    output wire [1:0]              s_axi_rresp,
    output wire                    s_axi_rlast,
    output wire                    s_axi_rvalid,
    input  wire                    s_axi_rready
);

localparam STRB_WIDTH = DATA_WIDTH / 8;
// Bits of a byte's lane within a word, and of a byte's offset within the memory
localparam LANE_WIDTH = $clog2(STRB_WIDTH);
localparam OFFSET_WIDTH = $clog2(SIZE_BYTES);
localparam WORDS = SIZE_BYTES / STRB_WIDTH;
// Wide enough for an offset plus the longest burst (256 beats of 64 bytes, 2^14) without overflow
localparam EXTENT_WIDTH = OFFSET_WIDTH + 15;
localparam [31:0] SIZE_BYTES_32 = SIZE_BYTES;

localparam [1:0] BURST_INCR = 2'b01;
localparam [1:0] RESP_OKAY = 2'b00;
localparam [1:0] RESP_SLVERR = 2'b10;
localparam [1:0] RESP_DECERR = 2'b11;

initial begin
    if (DATA_WIDTH < 64 || DATA_WIDTH > 512 || (DATA_WIDTH & (DATA_WIDTH - 1)) != 0) begin
        $error("Error: DATA_WIDTH must be a power of two from 64 to 512 (instance %m)");
        $finish;
    end
    if (SIZE_BYTES < 2 * STRB_WIDTH || (SIZE_BYTES & (SIZE_BYTES - 1)) != 0) begin
        $error("Error: SIZE_BYTES must be a power of two of at least two words (instance %m)");
        $finish;
    end
    if (ADDR_WIDTH < OFFSET_WIDTH) begin
        $error("Error: ADDR_WIDTH must be wide enough to address SIZE_BYTES (instance %m)");
        $finish;
    end
    if (ID_WIDTH < 1) begin
        $error("Error: ID_WIDTH must be 1 or more (instance %m)");
        $finish;
    end
    if (BASE_ADDRESS[LANE_WIDTH-1:0] != {LANE_WIDTH{1'b0}}) begin
        $error("Error: BASE_ADDRESS must be a multiple of DATA_WIDTH/8 (instance %m)");
        $finish;
    end
end

reg [DATA_WIDTH-1:0] memory [0:WORDS-1];

// The answer a burst gets, from its address fields alone (see the header)
function [1:0] burst_response(input [ADDR_WIDTH-1:0] address, input [7:0] beats_less_one,
                              input [2:0] size, input [1:0] burst);
    reg [ADDR_WIDTH-1:0]   offset;
    reg [EXTENT_WIDTH-1:0] first_byte, end_byte;
    begin
        offset = address - BASE_ADDRESS;
        // The first beat's bytes start at the address aligned down to the beat size
        first_byte = {{EXTENT_WIDTH-OFFSET_WIDTH{1'b0}}, offset[OFFSET_WIDTH-1:0]} >> size << size;
        end_byte = first_byte + ({{EXTENT_WIDTH-8{1'b0}}, beats_less_one} + 1'b1 << size);
        if (burst != BURST_INCR || size > LANE_WIDTH[2:0]) begin
            burst_response = RESP_SLVERR;
        end else if ((offset >> OFFSET_WIDTH) != {ADDR_WIDTH{1'b0}} || {32'd0, end_byte} > {{EXTENT_WIDTH{1'b0}}, SIZE_BYTES_32}) begin
            burst_response = RESP_DECERR;
        end else begin
            burst_response = RESP_OKAY;
        end
    end
endfunction

// A byte's offset from BASE_ADDRESS (its low bits need only the address's low bits)
function [OFFSET_WIDTH-1:0] ram_offset(input [OFFSET_WIDTH-1:0] address_low_bits);
    begin
        ram_offset = address_low_bits - BASE_ADDRESS[OFFSET_WIDTH-1:0];
    end
endfunction

// The offset of a burst's next beat: INCR moves to the next AxSIZE boundary (from an unaligned
// first address as well)
function [OFFSET_WIDTH-1:0] next_beat_offset(input [OFFSET_WIDTH-1:0] offset, input [2:0] size);
    begin
        next_beat_offset = (offset >> size << size) + ({{OFFSET_WIDTH-1{1'b0}}, 1'b1} << size);
    end
endfunction

// ---- Write: burst in progress, one address waiting, two response registers ----

reg                    write_active;
reg [OFFSET_WIDTH-1:0] write_offset;
reg [7:0]              write_beats_left;
reg [2:0]              write_size;
reg [ID_WIDTH-1:0]     write_id;
reg [1:0]              write_resp;

reg                    aw_waiting;
reg [OFFSET_WIDTH-1:0] aw_waiting_offset;
reg [7:0]              aw_waiting_len;
reg [2:0]              aw_waiting_size;
reg [ID_WIDTH-1:0]     aw_waiting_id;
reg [1:0]              aw_waiting_resp;

reg                    b_valid, b_spare_valid;
reg [ID_WIDTH-1:0]     b_id, b_spare_id;
reg [1:0]              b_resp, b_spare_resp;

wire [1:0] aw_resp = burst_response(s_axi_awaddr, s_axi_awlen, s_axi_awsize, s_axi_awburst);
wire       aw_taken = s_axi_awvalid && s_axi_awready;
wire       write_last_beat = write_beats_left == 8'd0;
// The last beat needs a free response register: the spare one is free unless both are full
wire       w_taken = s_axi_wvalid && s_axi_wready;
wire       write_ends = w_taken && write_last_beat;
wire       write_can_start = !write_active || write_ends;
wire [OFFSET_WIDTH-LANE_WIDTH-1:0] write_word = write_offset[OFFSET_WIDTH-1:LANE_WIDTH];

assign s_axi_awready = !aw_waiting;
assign s_axi_wready = write_active && (!write_last_beat || !b_spare_valid);
assign s_axi_bid = b_id;
assign s_axi_bresp = b_resp;
assign s_axi_bvalid = b_valid;

integer lane;

always @(posedge clk) begin
    if (w_taken && write_resp == RESP_OKAY) begin
        for (lane = 0; lane < STRB_WIDTH; lane = lane + 1) begin
            if (s_axi_wstrb[lane]) begin
                memory[write_word][lane*8 +: 8] <= s_axi_wdata[lane*8 +: 8];
            end
        end
    end
end

always @(posedge clk) begin
    if (w_taken) begin
        write_offset <= next_beat_offset(write_offset, write_size);
        write_beats_left <= write_beats_left - 8'd1;
        if (write_last_beat) begin
            write_active <= 1'b0;
        end
    end

    if (write_can_start) begin
        if (aw_waiting) begin
            write_active <= 1'b1;
            write_offset <= aw_waiting_offset;
            write_beats_left <= aw_waiting_len;
            write_size <= aw_waiting_size;
            write_id <= aw_waiting_id;
            write_resp <= aw_waiting_resp;
            aw_waiting <= 1'b0;
        end else if (aw_taken) begin
            write_active <= 1'b1;
            write_offset <= ram_offset(s_axi_awaddr[OFFSET_WIDTH-1:0]);
            write_beats_left <= s_axi_awlen;
            write_size <= s_axi_awsize;
            write_id <= s_axi_awid;
            write_resp <= aw_resp;
        end
    end else if (aw_taken) begin
        aw_waiting <= 1'b1;
        aw_waiting_offset <= ram_offset(s_axi_awaddr[OFFSET_WIDTH-1:0]);
        aw_waiting_len <= s_axi_awlen;
        aw_waiting_size <= s_axi_awsize;
        aw_waiting_id <= s_axi_awid;
        aw_waiting_resp <= aw_resp;
    end

    // Responses: the output register refills from the spare one, then from a burst just ended
    if (!b_valid || s_axi_bready) begin
        if (b_spare_valid) begin
            b_valid <= 1'b1;
            b_id <= b_spare_id;
            b_resp <= b_spare_resp;
            b_spare_valid <= write_ends;
            b_spare_id <= write_id;
            b_spare_resp <= write_resp;
        end else begin
            b_valid <= write_ends;
            b_id <= write_id;
            b_resp <= write_resp;
        end
    end else if (write_ends) begin
        b_spare_valid <= 1'b1;
        b_spare_id <= write_id;
        b_spare_resp <= write_resp;
    end

    if (rst) begin
        write_active <= 1'b0;
        aw_waiting <= 1'b0;
        b_valid <= 1'b0;
        b_spare_valid <= 1'b0;
    end
end

// ---- Read: burst in progress, one address waiting, the RAM's output register as the R beat ----

reg                    read_active;
reg [OFFSET_WIDTH-1:0] read_offset;
reg [7:0]              read_beats_left;
reg [2:0]              read_size;
reg [ID_WIDTH-1:0]     read_id;
reg [1:0]              read_resp;

reg                    ar_waiting;
reg [OFFSET_WIDTH-1:0] ar_waiting_offset;
reg [7:0]              ar_waiting_len;
reg [2:0]              ar_waiting_size;
reg [ID_WIDTH-1:0]     ar_waiting_id;
reg [1:0]              ar_waiting_resp;

reg [DATA_WIDTH-1:0]   r_data;
reg                    r_valid, r_last;
reg [ID_WIDTH-1:0]     r_id;
reg [1:0]              r_resp;

wire [1:0] ar_resp = burst_response(s_axi_araddr, s_axi_arlen, s_axi_arsize, s_axi_arburst);
wire       ar_taken = s_axi_arvalid && s_axi_arready;
wire       read_last_beat = read_beats_left == 8'd0;
// A beat is read whenever the output register is free or being taken in this cycle
wire       read_beat = read_active && (!r_valid || s_axi_rready);
wire       read_can_start = !read_active || (read_beat && read_last_beat);
wire [OFFSET_WIDTH-LANE_WIDTH-1:0] read_word = read_offset[OFFSET_WIDTH-1:LANE_WIDTH];

assign s_axi_arready = !ar_waiting;
assign s_axi_rid = r_id;
assign s_axi_rdata = r_data;
assign s_axi_rresp = r_resp;
assign s_axi_rlast = r_last;
assign s_axi_rvalid = r_valid;

always @(posedge clk) begin
    if (read_beat) begin
        r_data <= memory[read_word];
    end
end

always @(posedge clk) begin
    if (read_beat) begin
        r_valid <= 1'b1;
        r_last <= read_last_beat;
        r_id <= read_id;
        r_resp <= read_resp;
        read_offset <= next_beat_offset(read_offset, read_size);
        read_beats_left <= read_beats_left - 8'd1;
        if (read_last_beat) begin
            read_active <= 1'b0;
        end
    end else if (s_axi_rready) begin
        r_valid <= 1'b0;
    end

    if (read_can_start) begin
        if (ar_waiting) begin
            read_active <= 1'b1;
            read_offset <= ar_waiting_offset;
            read_beats_left <= ar_waiting_len;
            read_size <= ar_waiting_size;
            read_id <= ar_waiting_id;
            read_resp <= ar_waiting_resp;
            ar_waiting <= 1'b0;
        end else if (ar_taken) begin
            read_active <= 1'b1;
            read_offset <= ram_offset(s_axi_araddr[OFFSET_WIDTH-1:0]);
            read_beats_left <= s_axi_arlen;
            read_size <= s_axi_arsize;
            read_id <= s_axi_arid;
            read_resp <= ar_resp;
        end
    end else if (ar_taken) begin
        ar_waiting <= 1'b1;
        ar_waiting_offset <= ram_offset(s_axi_araddr[OFFSET_WIDTH-1:0]);
        ar_waiting_len <= s_axi_arlen;
        ar_waiting_size <= s_axi_arsize;
        ar_waiting_id <= s_axi_arid;
        ar_waiting_resp <= ar_resp;
    end

    if (rst) begin
        read_active <= 1'b0;
        ar_waiting <= 1'b0;
        r_valid <= 1'b0;
    end
end

endmodule

`resetall
