// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Streaming reducer: joins the incoming partial and the local operand beat by beat, one beat per cycle
`resetall
`timescale 1ns / 1ps
`default_nettype none

// result = incoming (op) local, element by element (see reduce_alu for dtype and op codes).
// Latency: 3 cycles from both operands accepted to the result on m_axis (join register, the
// ALU's first stage, then its result register, which is m_axis_tdata); II = 1 for every dtype. Malformed input never hangs the unit:
// - operands whose frames end on different beats: the result frame ends with the shorter one,
//   carries tuser = 1, and the rest of the longer one is drained;
// - tkeep that differs between operands, is not a run of whole elements from lane 0, or is not
//   full on a beat before tlast: the beat is reduced anyway and the frame carries tuser = 1;
// - an unsupported dtype or op: both inputs are drained and nothing is produced.
module allreduce_reducer #(
    // Width of a beat in bits (a multiple of 32)
    parameter DATA_WIDTH = 512
) (
    input  wire                    clk,
    input  wire                    rst,

    input  wire [2:0]              dtype,
    input  wire [1:0]              op,
    input  wire                    flush_subnormals,
    output wire                    config_error,

    input  wire [DATA_WIDTH-1:0]   s_axis_incoming_tdata,
    input  wire [DATA_WIDTH/8-1:0] s_axis_incoming_tkeep,
    input  wire                    s_axis_incoming_tvalid,
    output wire                    s_axis_incoming_tready,
    input  wire                    s_axis_incoming_tlast,

    input  wire [DATA_WIDTH-1:0]   s_axis_local_tdata,
    input  wire [DATA_WIDTH/8-1:0] s_axis_local_tkeep,
    input  wire                    s_axis_local_tvalid,
    output wire                    s_axis_local_tready,
    input  wire                    s_axis_local_tlast,

    output wire [DATA_WIDTH-1:0]   m_axis_tdata,
    output reg  [DATA_WIDTH/8-1:0] m_axis_tkeep,
    output reg                     m_axis_tvalid,
    input  wire                    m_axis_tready,
    output reg                     m_axis_tlast,
    // 1 on a frame's last beat (and on the faulty beat) when the frame had malformed input
    output reg                     m_axis_tuser,

    // Event outputs for counters, one cycle each; the element counts come two cycles after their
    // beat leaves on m_axis (flags, then their count, each registered: at 512 bits the dtype's
    // flags, a 64-way popcount and a counter's carry chain do not fit one 250 MHz cycle)
    output wire                    event_starved,
    output reg  [7:0]              event_nan_elements,
    output reg  [7:0]              event_overflow_elements,
    output wire                    event_length_mismatch,
    output wire                    event_keep_error,
    output wire                    event_dropped_beat
);

localparam KEEP_WIDTH = DATA_WIDTH / 8;
localparam [31:0] BEAT_BYTES = DATA_WIDTH / 8;
localparam [7:0] FULL_BEAT_BYTES = BEAT_BYTES[7:0];

initial begin
    if (DATA_WIDTH % 32 != 0 || DATA_WIDTH > 1024) begin
        $error("Error: DATA_WIDTH must be a multiple of 32, at most 1024 (instance %m)");
        $finish;
    end
end

assign config_error = dtype > 3'd6 || op > 2'd2;

function [2:0] element_bytes(input [2:0] type_code);
    case (type_code)
        3'd0, 3'd3: element_bytes = 3'd4;
        3'd1, 3'd2: element_bytes = 3'd2;
        default: element_bytes = 3'd1;
    endcase
endfunction

// A run of whole elements from lane 0: contiguous ones, length a multiple of the element size,
// and the whole beat unless it is the last one.
function keep_well_formed(input [KEEP_WIDTH-1:0] keep, input last, input [2:0] type_code);
    integer lane;
    reg [7:0] kept;
    begin
        kept = 0;
        for (lane = 0; lane < KEEP_WIDTH; lane = lane + 1) begin
            kept = kept + {7'd0, keep[lane]};
        end
        keep_well_formed = ((keep & (keep + 1'b1)) == 0) && kept != 0 && (kept % {5'd0, element_bytes(type_code)}) == 0
                           && (last || kept == FULL_BEAT_BYTES);
    end
endfunction

function [7:0] count_flags(input [KEEP_WIDTH-1:0] flags);
    integer lane;
    begin
        count_flags = 0;
        for (lane = 0; lane < KEEP_WIDTH; lane = lane + 1) begin
            count_flags = count_flags + {7'd0, flags[lane]};
        end
    end
endfunction

// The whole pipeline advances together whenever the output register can take a beat.
wire advance = !m_axis_tvalid || m_axis_tready;

reg draining_incoming, draining_local, in_frame, frame_error;

reg [DATA_WIDTH-1:0] joined_incoming, joined_local;
reg [KEEP_WIDTH-1:0] joined_keep;
reg                  joined_valid, joined_last, joined_error;

wire both_offered = s_axis_incoming_tvalid && s_axis_local_tvalid;
wire joining = advance && !config_error && !draining_incoming && !draining_local;
wire operands_taken = joining && both_offered;
wire lengths_differ = s_axis_incoming_tlast != s_axis_local_tlast;
wire keep_bad = s_axis_incoming_tkeep != s_axis_local_tkeep
                || !keep_well_formed(s_axis_incoming_tkeep, s_axis_incoming_tlast, dtype);

assign s_axis_incoming_tready = config_error || draining_incoming || operands_taken;
assign s_axis_local_tready = config_error || draining_local || operands_taken;

assign event_starved = joining && in_frame && !both_offered;
assign event_length_mismatch = operands_taken && lengths_differ;
assign event_keep_error = operands_taken && keep_bad;
assign event_dropped_beat = (config_error || draining_incoming) && s_axis_incoming_tvalid
                            || (config_error || draining_local) && s_axis_local_tvalid;

// The beat in the ALU's first stage: its frame fields wait here beside it
reg [KEEP_WIDTH-1:0] computing_keep;
reg                  computing_valid, computing_last, computing_error;

wire [KEEP_WIDTH-1:0] alu_nan, alu_overflow;
wire                  operands_load = advance && joined_valid;
wire                  result_loads = advance && computing_valid;
// High for the one cycle after a result loads, so each beat's flags count once.
reg                   result_fresh;

reduce_alu #(.DATA_WIDTH(DATA_WIDTH)) alu_inst (
    .clk(clk),
    .enable(operands_load),
    .finish(result_loads),
    .a(joined_incoming),
    .b(joined_local),
    .dtype(dtype),
    .op(op),
    .flush_subnormals(flush_subnormals),
    .result(m_axis_tdata),
    .nan_flags(alu_nan),
    .overflow_flags(alu_overflow)
);

// The flags of the beat that just left, zero on other cycles; counted the cycle after
reg [KEEP_WIDTH-1:0] fresh_nan_flags, fresh_overflow_flags;

always @(posedge clk) begin
    result_fresh <= result_loads;
    fresh_nan_flags <= result_fresh ? alu_nan & m_axis_tkeep : {KEEP_WIDTH{1'b0}};
    fresh_overflow_flags <= result_fresh ? alu_overflow & m_axis_tkeep : {KEEP_WIDTH{1'b0}};
    event_nan_elements <= count_flags(fresh_nan_flags);
    event_overflow_elements <= count_flags(fresh_overflow_flags);
    if (advance) begin
        m_axis_tvalid <= computing_valid;
        if (computing_valid) begin
            m_axis_tkeep <= computing_keep;
            m_axis_tlast <= computing_last;
            m_axis_tuser <= computing_error;
        end
        computing_valid <= joined_valid;
        if (joined_valid) begin
            computing_keep <= joined_keep;
            computing_last <= joined_last;
            computing_error <= joined_error;
        end
        joined_valid <= operands_taken;
        if (operands_taken) begin
            joined_incoming <= s_axis_incoming_tdata;
            joined_local <= s_axis_local_tdata;
            joined_keep <= s_axis_incoming_tkeep & s_axis_local_tkeep;
            // A mismatch ends the result frame here; the longer operand is drained.
            joined_last <= s_axis_incoming_tlast || s_axis_local_tlast;
            joined_error <= keep_bad || lengths_differ || (frame_error && (s_axis_incoming_tlast || s_axis_local_tlast));
            in_frame <= !(s_axis_incoming_tlast || s_axis_local_tlast);
            frame_error <= (frame_error || keep_bad || lengths_differ) && !(s_axis_incoming_tlast || s_axis_local_tlast);
            draining_incoming <= lengths_differ && !s_axis_incoming_tlast;
            draining_local <= lengths_differ && !s_axis_local_tlast;
        end
    end
    if (draining_incoming && s_axis_incoming_tvalid && s_axis_incoming_tlast) begin
        draining_incoming <= 1'b0;
    end
    if (draining_local && s_axis_local_tvalid && s_axis_local_tlast) begin
        draining_local <= 1'b0;
    end

    if (rst) begin
        m_axis_tvalid <= 1'b0;
        computing_valid <= 1'b0;
        joined_valid <= 1'b0;
        draining_incoming <= 1'b0;
        draining_local <= 1'b0;
        in_frame <= 1'b0;
        frame_error <= 1'b0;
        result_fresh <= 1'b0;
        fresh_nan_flags <= {KEEP_WIDTH{1'b0}};
        fresh_overflow_flags <= {KEEP_WIDTH{1'b0}};
        event_nan_elements <= 8'd0;
        event_overflow_elements <= 8'd0;
    end
end

endmodule

`resetall
