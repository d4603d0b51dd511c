// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// AXI4-Stream realigner: moves every byte of a frame up by a per-frame byte count, across beat boundaries
`resetall
`timescale 1ns / 1ps
`default_nettype none

// The input frame is byte-aligned (byte 0 in the first beat's lowest lane, beats full but the
// last). The output carries the same bytes `shift` lanes higher: the first beat's low lanes
// are empty (tkeep 0) and a last beat that no longer fits spills into one more beat. A DMA
// writer uses it to put a payload at an unaligned address; a frame builder, behind a header.
// Combinational from input to output, one beat per clock; put a register slice after it where
// timing needs one.
module axis_realign #(
    // Width of tdata in bits (a power of two, 16 to 1024)
    parameter DATA_WIDTH = 64
) (
    input  wire                         clk,
    input  wire                         rst,

    // Lanes to move the frame up by, sampled with the frame's first beat
    input  wire [$clog2(DATA_WIDTH/8)-1:0] s_shift,
    input  wire [DATA_WIDTH-1:0]        s_axis_tdata,
    input  wire [DATA_WIDTH/8-1:0]      s_axis_tkeep,
    input  wire                         s_axis_tvalid,
    output wire                         s_axis_tready,
    input  wire                         s_axis_tlast,

    output wire [DATA_WIDTH-1:0]        m_axis_tdata,
    output wire [DATA_WIDTH/8-1:0]      m_axis_tkeep,
    output wire                         m_axis_tvalid,
    input  wire                         m_axis_tready,
    output wire                         m_axis_tlast
);

localparam KEEP_WIDTH = DATA_WIDTH / 8;
localparam SHIFT_WIDTH = $clog2(KEEP_WIDTH);

initial begin
    if (DATA_WIDTH < 16 || DATA_WIDTH > 1024 || (DATA_WIDTH & (DATA_WIDTH - 1)) != 0) begin
        $error("Error: DATA_WIDTH must be a power of two from 16 to 1024 (instance %m)");
        $finish;
    end
end

reg                   mid_frame;
reg [SHIFT_WIDTH-1:0] frame_shift;
// Bytes of the previous input beat that belong in the next output beat, already in place
reg [DATA_WIDTH-1:0]  carry_data;
reg [KEEP_WIDTH-1:0]  carry_keep;
// The last input beat spilled: one more output beat holds its top bytes
reg                   tail_pending;

wire [SHIFT_WIDTH-1:0] shift = mid_frame ? frame_shift : s_shift;
// Shifting by the full width must give nothing, so the complement is computed one bit wider.
wire [SHIFT_WIDTH:0]   shift_complement = KEEP_WIDTH[SHIFT_WIDTH:0] - {1'b0, shift};
wire [KEEP_WIDTH-1:0]  spill_keep = s_axis_tkeep >> shift_complement;

assign s_axis_tready = m_axis_tready && !tail_pending;
assign m_axis_tvalid = tail_pending || s_axis_tvalid;
assign m_axis_tdata  = tail_pending ? carry_data : (s_axis_tdata << (shift * 8)) | carry_data;
assign m_axis_tkeep  = tail_pending ? carry_keep : (s_axis_tkeep << shift) | carry_keep;
assign m_axis_tlast  = tail_pending || (s_axis_tlast && spill_keep == {KEEP_WIDTH{1'b0}});

always @(posedge clk) begin
    if (tail_pending && m_axis_tready) begin
        tail_pending <= 1'b0;
        carry_data <= {DATA_WIDTH{1'b0}};
        carry_keep <= {KEEP_WIDTH{1'b0}};
    end
    if (s_axis_tvalid && s_axis_tready) begin
        frame_shift <= shift;
        mid_frame <= !s_axis_tlast;
        if (s_axis_tlast && spill_keep == {KEEP_WIDTH{1'b0}}) begin
            carry_data <= {DATA_WIDTH{1'b0}};
            carry_keep <= {KEEP_WIDTH{1'b0}};
        end else begin
            carry_data <= s_axis_tdata >> (shift_complement * 8);
            carry_keep <= spill_keep;
            tail_pending <= s_axis_tlast;
        end
    end
    if (rst) begin
        mid_frame <= 1'b0;
        frame_shift <= {SHIFT_WIDTH{1'b0}};
        carry_data <= {DATA_WIDTH{1'b0}};
        carry_keep <= {KEEP_WIDTH{1'b0}};
        tail_pending <= 1'b0;
    end
end

endmodule

`resetall
