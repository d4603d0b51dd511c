// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// DCQCN reaction point: one QP's current rate, target rate and alpha, from its CNPs and the bytes it sends
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "roce_dcqcn_stages.vh"

// dpuv.models.dcqcn.ReactionPoint in hardware, bit for bit (docs/reference/roce.md, Congestion
// control): each rising edge is one instant of the model, and at it, in the model's order, the
// alpha timer and the rate-increase timer run, then this cycle's bytes are counted, then this
// cycle's CNP is taken. The arithmetic is the model's and needs no division: products rounded
// down (a multiply and a shift), halving rounded up (an add and a shift).
//
// Time is counted in picoseconds, CLOCK_PERIOD_PS a cycle, against the periods' nanoseconds x
// 1000, so a timer due between two edges fires at the later one, as the model's advance() does.
// A timer fires at most once a cycle and a cycle makes at most one byte stage, which is what the
// limits on the period and byte counter ports below guarantee.
//
// The DCQCN parameter ports come from registers and must hold steady while the QP is throttled;
// reset loads RC and RT from line_rate_mbps and alpha from initial_alpha.
module roce_dcqcn_rate #(
    // The clock period in ps: how far each cycle moves the alpha and rate-increase timers
    parameter CLOCK_PERIOD_PS = 4000,
    // Width of the rates in whole Mb/s (20 bits: up to 1 048 575 Mb/s)
    parameter RATE_WIDTH = 20,
    // alpha is a fraction in units of 2^-ALPHA_FRACTION_BITS, 0 to 1 inclusive (mlx5: 10)
    parameter ALPHA_FRACTION_BITS = 10,
    // Width of bytes_sent (7: 0 to 127 bytes a cycle, enough for a 512-bit bus)
    parameter BYTE_COUNT_WIDTH = 7
) (
    input  wire                           clk,
    input  wire                           rst,

    // A CNP for this QP arrived (one cycle per CNP)
    input  wire                           cnp,
    // Bytes this QP sent this cycle; at most byte_counter_bytes
    input  wire [BYTE_COUNT_WIDTH-1:0]    bytes_sent,

    // The DCQCN parameters, from registers (DcqcnParameters' fields, docs/reference/roce.md,
    // DCQCN parameters, for their mlx5 names and defaults)
    input  wire [RATE_WIDTH-1:0]          line_rate_mbps,          // RC and RT start at and return to it
    input  wire [RATE_WIDTH-1:0]          min_rate_mbps,           // RC floor, 1 to the line rate
    input  wire [ALPHA_FRACTION_BITS:0]   initial_alpha,           // alpha before the first CNP, 0 to 1
    input  wire [ALPHA_FRACTION_BITS:0]   alpha_gain,              // g, above 0 and at most 1
    input  wire [31:0]                    alpha_update_period_ns,  // K, at least one clock period
    input  wire [31:0]                    rate_increase_period_ns, // T, at least one clock period
    input  wire [31:0]                    byte_counter_bytes,      // B, at least the largest bytes_sent
    input  wire [7:0]                     fast_recovery_stages,    // F
    input  wire [RATE_WIDTH-1:0]          additive_increase_mbps,  // R_AI
    input  wire [RATE_WIDTH-1:0]          hyper_increase_mbps,     // R_HAI

    output reg  [RATE_WIDTH-1:0]          current_rate_mbps,
    output reg  [RATE_WIDTH-1:0]          target_rate_mbps,
    output reg  [ALPHA_FRACTION_BITS:0]   alpha,
    // `DCQCN_STAGE_* (roce_dcqcn_stages.vh)
    output reg  [1:0]                     stage
);

localparam ALPHA_WIDTH = ALPHA_FRACTION_BITS + 1;
// A period of up to 2^32 - 1 ns in ps, plus one clock period, without wrapping
localparam TIMER_WIDTH = 43;
// Counts past any 8-bit F; they saturate, since only "at most F" matters
localparam STAGE_COUNT_WIDTH = 9;

initial begin
    if (CLOCK_PERIOD_PS < 1 || CLOCK_PERIOD_PS > 1000000) begin
        $error("Error: CLOCK_PERIOD_PS must be 1 to 1000000 (instance %m)");
        $finish;
    end
    if (RATE_WIDTH < 1 || RATE_WIDTH > 32) begin
        $error("Error: RATE_WIDTH must be 1 to 32 (instance %m)");
        $finish;
    end
    // The model allows 32; past 16 the two alpha multipliers cost more than any NIC spends (mlx5: 10)
    if (ALPHA_FRACTION_BITS < 1 || ALPHA_FRACTION_BITS > 16) begin
        $error("Error: ALPHA_FRACTION_BITS must be 1 to 16 (instance %m)");
        $finish;
    end
    if (BYTE_COUNT_WIDTH < 1 || BYTE_COUNT_WIDTH > 32) begin
        $error("Error: BYTE_COUNT_WIDTH must be 1 to 32 (instance %m)");
        $finish;
    end
end

localparam [ALPHA_WIDTH-1:0] ALPHA_ONE = 1 << ALPHA_FRACTION_BITS;
localparam [TIMER_WIDTH-1:0] CLOCK_STEP_PS = {{(TIMER_WIDTH-32){1'b0}}, CLOCK_PERIOD_PS[31:0]};
localparam [STAGE_COUNT_WIDTH-1:0] STAGE_COUNT_FULL = {STAGE_COUNT_WIDTH{1'b1}};
localparam [TIMER_WIDTH-1:0] PS_PER_NS = 1000;

reg [TIMER_WIDTH-1:0] alpha_elapsed_ps;      // since the last CNP or alpha update
reg                   alpha_timer_running;   // from a CNP until alpha decays to zero
reg [TIMER_WIDTH-1:0] increase_elapsed_ps;   // since the last CNP or time stage
reg [STAGE_COUNT_WIDTH-1:0] time_stage, byte_stage;
reg [31:0]            bytes_toward_stage;    // since the last CNP or byte stage

// The increase timer runs exactly while the QP is throttled
wire throttled = stage != `DCQCN_STAGE_UNTHROTTLED;

// ---- the alpha timer: alpha = (1 - g) x alpha, rounded down ----
wire [TIMER_WIDTH-1:0] alpha_period_ps = {{(TIMER_WIDTH-32){1'b0}}, alpha_update_period_ns} * PS_PER_NS;
wire [TIMER_WIDTH-1:0] alpha_elapsed_next = alpha_elapsed_ps + CLOCK_STEP_PS;
wire alpha_due = alpha_timer_running && alpha_elapsed_next >= alpha_period_ps;
wire [ALPHA_WIDTH-1:0] alpha_keep = ALPHA_ONE - alpha_gain;  // 1 - g
wire [2*ALPHA_WIDTH-1:0] alpha_decay_product = {{ALPHA_WIDTH{1'b0}}, alpha_keep} * {{ALPHA_WIDTH{1'b0}}, alpha};
wire [ALPHA_WIDTH-1:0] alpha_decayed = alpha_decay_product[ALPHA_FRACTION_BITS +: ALPHA_WIDTH];
wire [ALPHA_WIDTH-1:0] alpha_after_timer = alpha_due ? alpha_decayed : alpha;

// ---- the rate-increase timer: a time stage ----
wire [TIMER_WIDTH-1:0] increase_period_ps = {{(TIMER_WIDTH-32){1'b0}}, rate_increase_period_ns} * PS_PER_NS;
wire [TIMER_WIDTH-1:0] increase_elapsed_next = increase_elapsed_ps + CLOCK_STEP_PS;
wire time_stage_due = throttled && increase_elapsed_next >= increase_period_ps;
wire [STAGE_COUNT_WIDTH-1:0] time_stage_counted = time_stage == STAGE_COUNT_FULL ? time_stage : time_stage + 1'b1;

wire [RATE_WIDTH-1:0] time_step_current, time_step_target;
wire [1:0] time_step_stage;
wire time_step_recovered;
roce_dcqcn_increase #(.RATE_WIDTH(RATE_WIDTH), .STAGE_COUNT_WIDTH(STAGE_COUNT_WIDTH)) time_step_inst (
    .current_rate_mbps(current_rate_mbps), .target_rate_mbps(target_rate_mbps),
    .time_stage(time_stage_counted), .byte_stage(byte_stage),
    .fast_recovery_stages(fast_recovery_stages), .line_rate_mbps(line_rate_mbps),
    .additive_increase_mbps(additive_increase_mbps), .hyper_increase_mbps(hyper_increase_mbps),
    .next_current_rate_mbps(time_step_current), .next_target_rate_mbps(time_step_target),
    .next_stage(time_step_stage), .recovered(time_step_recovered)
);

// After the timers (the model's advance(now))
wire [RATE_WIDTH-1:0] current_after_timer = time_stage_due ? time_step_current : current_rate_mbps;
wire [RATE_WIDTH-1:0] target_after_timer = time_stage_due ? time_step_target : target_rate_mbps;
wire [1:0] stage_after_timer = time_stage_due ? time_step_stage : stage;
wire recovered_by_timer = time_stage_due && time_step_recovered;
wire [STAGE_COUNT_WIDTH-1:0] time_stage_after_timer = recovered_by_timer ? {STAGE_COUNT_WIDTH{1'b0}}
                                                    : time_stage_due ? time_stage_counted : time_stage;
wire [STAGE_COUNT_WIDTH-1:0] byte_stage_after_timer = recovered_by_timer ? {STAGE_COUNT_WIDTH{1'b0}} : byte_stage;

// ---- the byte counter: a byte stage; bytes sent at the line rate do not count ----
wire counting_bytes = stage_after_timer != `DCQCN_STAGE_UNTHROTTLED;
wire [32:0] bytes_toward_next = {1'b0, bytes_toward_stage} + {{(33-BYTE_COUNT_WIDTH){1'b0}}, bytes_sent};
wire byte_stage_due = counting_bytes && bytes_toward_next >= {1'b0, byte_counter_bytes};
wire [31:0] bytes_after_stage = byte_stage_due ? bytes_toward_next[31:0] - byte_counter_bytes : bytes_toward_next[31:0];
wire [STAGE_COUNT_WIDTH-1:0] byte_stage_counted = byte_stage_after_timer == STAGE_COUNT_FULL ? byte_stage_after_timer
                                                : byte_stage_after_timer + 1'b1;

wire [RATE_WIDTH-1:0] byte_step_current, byte_step_target;
wire [1:0] byte_step_stage;
wire byte_step_recovered;
roce_dcqcn_increase #(.RATE_WIDTH(RATE_WIDTH), .STAGE_COUNT_WIDTH(STAGE_COUNT_WIDTH)) byte_step_inst (
    .current_rate_mbps(current_after_timer), .target_rate_mbps(target_after_timer),
    .time_stage(time_stage_after_timer), .byte_stage(byte_stage_counted),
    .fast_recovery_stages(fast_recovery_stages), .line_rate_mbps(line_rate_mbps),
    .additive_increase_mbps(additive_increase_mbps), .hyper_increase_mbps(hyper_increase_mbps),
    .next_current_rate_mbps(byte_step_current), .next_target_rate_mbps(byte_step_target),
    .next_stage(byte_step_stage), .recovered(byte_step_recovered)
);

// After the bytes (the model's on_bytes_sent(n, now))
wire [RATE_WIDTH-1:0] current_after_bytes = byte_stage_due ? byte_step_current : current_after_timer;
wire [RATE_WIDTH-1:0] target_after_bytes = byte_stage_due ? byte_step_target : target_after_timer;
wire [1:0] stage_after_bytes = byte_stage_due ? byte_step_stage : stage_after_timer;
wire recovered_by_bytes = byte_stage_due && byte_step_recovered;

// ---- a CNP: RT = RC, RC = RC x (1 - alpha / 2) but not below the minimum, alpha = (1 - g) x alpha + g ----
wire [RATE_WIDTH+ALPHA_WIDTH-1:0] cut_product = {{ALPHA_WIDTH{1'b0}}, current_after_bytes}
                                               * {{RATE_WIDTH{1'b0}}, alpha_after_timer};
// alpha is at most 1, so the cut is at most half the rate and RC - cut never wraps
wire [RATE_WIDTH-1:0] rate_cut = cut_product[ALPHA_FRACTION_BITS+1 +: RATE_WIDTH];
wire [RATE_WIDTH-1:0] current_cut = current_after_bytes - rate_cut;
wire [2*ALPHA_WIDTH-1:0] alpha_cnp_product = {{ALPHA_WIDTH{1'b0}}, alpha_keep} * {{ALPHA_WIDTH{1'b0}}, alpha_after_timer};
// (1 - g) x alpha + g stays at most 1 while alpha does
wire [ALPHA_WIDTH-1:0] alpha_after_cnp = alpha_cnp_product[ALPHA_FRACTION_BITS +: ALPHA_WIDTH] + alpha_gain;

always @(posedge clk) begin
    if (cnp) begin
        target_rate_mbps <= current_after_bytes;
        current_rate_mbps <= current_cut < min_rate_mbps ? min_rate_mbps : current_cut;
        alpha <= alpha_after_cnp;
        stage <= `DCQCN_STAGE_FAST_RECOVERY;
        time_stage <= {STAGE_COUNT_WIDTH{1'b0}};
        byte_stage <= {STAGE_COUNT_WIDTH{1'b0}};
        bytes_toward_stage <= 32'd0;
        alpha_timer_running <= 1'b1;
        alpha_elapsed_ps <= {TIMER_WIDTH{1'b0}};
        increase_elapsed_ps <= {TIMER_WIDTH{1'b0}};
    end else begin
        target_rate_mbps <= target_after_bytes;
        current_rate_mbps <= current_after_bytes;
        alpha <= alpha_after_timer;
        stage <= stage_after_bytes;
        if (recovered_by_bytes) begin
            time_stage <= {STAGE_COUNT_WIDTH{1'b0}};
            byte_stage <= {STAGE_COUNT_WIDTH{1'b0}};
        end else begin
            time_stage <= time_stage_after_timer;
            byte_stage <= byte_stage_due ? byte_stage_counted : byte_stage_after_timer;
        end
        if (counting_bytes) begin
            bytes_toward_stage <= bytes_after_stage;
        end
        if (alpha_timer_running) begin
            alpha_elapsed_ps <= alpha_due ? alpha_elapsed_next - alpha_period_ps : alpha_elapsed_next;
        end
        // At zero alpha can fall no further: the timer waits for the next CNP
        if (alpha_due && alpha_decayed == {ALPHA_WIDTH{1'b0}}) begin
            alpha_timer_running <= 1'b0;
        end
        if (throttled) begin
            increase_elapsed_ps <= time_stage_due ? increase_elapsed_next - increase_period_ps : increase_elapsed_next;
        end
    end
    if (rst) begin
        current_rate_mbps <= line_rate_mbps;
        target_rate_mbps <= line_rate_mbps;
        alpha <= initial_alpha;
        stage <= `DCQCN_STAGE_UNTHROTTLED;
        time_stage <= {STAGE_COUNT_WIDTH{1'b0}};
        byte_stage <= {STAGE_COUNT_WIDTH{1'b0}};
        bytes_toward_stage <= 32'd0;
        alpha_timer_running <= 1'b0;
        alpha_elapsed_ps <= {TIMER_WIDTH{1'b0}};
        increase_elapsed_ps <= {TIMER_WIDTH{1'b0}};
    end
end

endmodule

`resetall
