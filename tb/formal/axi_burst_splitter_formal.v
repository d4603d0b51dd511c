// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Formal harness of axi_burst_splitter (64-bit beats, 16-bit addresses, commands up to 8 KiB):
// no burst crosses a 4 KiB boundary or exceeds 256 beats, and the bursts of each command are
// contiguous, cover exactly its beats, and end with the last flag on the final one
`default_nettype none

module axi_burst_splitter_formal (
    input wire        clk,
    input wire        rst,
    input wire [15:0] s_cmd_addr,
    input wire [12:0] s_cmd_len,
    input wire        s_cmd_valid,
    input wire        m_burst_ready
);

// Bounded only (BOUNDED_CHECKS, formal_harness.vh): which command a burst belongs to, harness
// state set against the splitter's hidden counters
localparam BEAT_BYTES = 8;
localparam MAX_BURST_BEATS = 256;

wire        s_cmd_ready;
wire [2:0]  cmd_offset;
wire [13:0] cmd_beats;
wire [15:0] m_burst_addr;
wire [8:0]  m_burst_beats;
wire [2:0]  m_burst_offset;
wire        m_burst_last;
wire        m_burst_valid;

axi_burst_splitter #(.DATA_WIDTH(64), .ADDR_WIDTH(16), .LEN_WIDTH(13), .MAX_BURST_BEATS(MAX_BURST_BEATS)) dut (
    .clk(clk), .rst(rst),
    .s_cmd_addr(s_cmd_addr), .s_cmd_len(s_cmd_len), .s_cmd_valid(s_cmd_valid), .s_cmd_ready(s_cmd_ready),
    .cmd_offset(cmd_offset), .cmd_beats(cmd_beats),
    .m_burst_addr(m_burst_addr), .m_burst_beats(m_burst_beats), .m_burst_offset(m_burst_offset),
    .m_burst_last(m_burst_last), .m_burst_valid(m_burst_valid), .m_burst_ready(m_burst_ready)
);

`include "formal_harness.vh"

// The command interface's contract: one byte or more, held until taken
always @(*) if (s_cmd_valid) assume(s_cmd_len != 13'd0);
axis_handshake_rules #(.PAYLOAD_WIDTH(29), .ENVIRONMENT(1)) command_rules (
    .clk(clk), .rst(rst), .valid(s_cmd_valid), .ready(s_cmd_ready), .payload({s_cmd_addr, s_cmd_len}));
axis_handshake_rules #(.PAYLOAD_WIDTH(29), .ENVIRONMENT(0)) burst_rules (
    .clk(clk), .rst(rst), .valid(m_burst_valid), .ready(m_burst_ready),
    .payload({m_burst_addr, m_burst_beats, m_burst_offset, m_burst_last}));

wire [16:0] burst_end = {5'd0, m_burst_addr[11:0]} + {m_burst_beats, 3'd0};

always @(*) begin
    if (past_valid && !rst && m_burst_valid) begin
        assert(m_burst_beats != 9'd0 && m_burst_beats <= MAX_BURST_BEATS);
        assert(m_burst_addr[2:0] == 3'd0);
        assert(burst_end <= 17'd4096);
    end
end

// The bursts owed: the command being split, and at most one accepted behind it (taken while
// the previous command's last burst still waited for m_burst_ready)
reg        current_owed = 1'b0;
reg [15:0] current_addr;
reg [13:0] current_beats;
reg [2:0]  current_offset;
reg        next_owed = 1'b0;
reg [15:0] next_addr;
reg [13:0] next_beats;
reg [2:0]  next_offset;

wire        command_taken = s_cmd_valid && s_cmd_ready;
wire        burst_taken = m_burst_valid && m_burst_ready;
// Independent of the splitter: the beats that bytes [addr, addr + len) touch
wire [13:0] command_beats = ({1'b0, s_cmd_len} + {11'd0, s_cmd_addr[2:0]} + 14'd7) >> 3;
wire        current_done = burst_taken && m_burst_last;

always @(posedge clk) begin
    if (burst_taken) begin
        current_addr <= current_addr + {m_burst_beats[7:0] == 8'd0 && m_burst_beats[8], m_burst_beats[7:0], 3'd0};
        current_beats <= current_beats - {5'd0, m_burst_beats};
    end
    if (current_done) begin
        current_owed <= next_owed;
        current_addr <= next_addr;
        current_beats <= next_beats;
        current_offset <= next_offset;
        next_owed <= 1'b0;
    end
    if (command_taken) begin
        if (current_owed && !current_done) begin
            next_owed <= 1'b1;
            next_addr <= {s_cmd_addr[15:3], 3'd0};
            next_beats <= command_beats;
            next_offset <= s_cmd_addr[2:0];
        end else begin
            current_owed <= 1'b1;
            current_addr <= {s_cmd_addr[15:3], 3'd0};
            current_beats <= command_beats;
            current_offset <= s_cmd_addr[2:0];
        end
    end
    if (rst) begin
        current_owed <= 1'b0;
        next_owed <= 1'b0;
    end
end

always @(*) begin
    if (BOUNDED_CHECKS && past_valid && !rst) begin
        if (command_taken) assert(cmd_beats == command_beats && cmd_offset == s_cmd_addr[2:0]);
        if (command_taken && current_owed && !current_done) assert(!next_owed);
        if (m_burst_valid) begin
            assert(current_owed);
            assert(m_burst_addr == current_addr && m_burst_offset == current_offset);
            assert({5'd0, m_burst_beats} <= current_beats);
            assert(m_burst_last == ({5'd0, m_burst_beats} == current_beats));
        end
    end
end

// Reachable: a command split in three or more bursts, a burst ending on a 4 KiB boundary, and a
// command taken while the last burst of the one before still waits
reg [1:0] bursts_of_current = 2'd0;
always @(posedge clk) begin
    if (burst_taken) bursts_of_current <= m_burst_last ? 2'd0 : (bursts_of_current == 2'd3 ? 2'd3 : bursts_of_current + 2'd1);
    if (rst) bursts_of_current <= 2'd0;
end
always @(*) begin
    if (past_valid && !rst) begin
        cover(burst_taken && m_burst_last && bursts_of_current == 2'd2);
        cover(burst_taken && burst_end == 17'd4096 && !m_burst_last);
        cover(command_taken && m_burst_valid && m_burst_last && !m_burst_ready);
    end
end

endmodule
