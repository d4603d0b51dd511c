// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Formal harness of roce_completion_queue (64-bit stream): a completion is only ever written into
// a ring slot the host has consumed, at the slot its producer index names, and the producer index
// the host reads counts exactly the completions taken; each entry is one 32-byte, 4-beat frame
`default_nettype none

module roce_completion_queue_formal (
    input wire        clk,
    input wire        rst,
    input wire [63:0] cq_base,
    input wire [3:0]  cq_log_size,
    input wire [15:0] cq_consumer_index,
    input wire        s_cqe_valid,
    input wire [63:0] s_cqe_wr_id,
    input wire [31:0] s_cqe_byte_len,
    input wire [31:0] s_cqe_immediate,
    input wire        s_cqe_immediate_valid,
    input wire [23:0] s_cqe_qpn,
    input wire [7:0]  s_cqe_opcode,
    input wire [7:0]  s_cqe_status,
    input wire        m_write_cmd_ready,
    input wire        m_axis_tready
);

// Bounded only (BOUNDED_CHECKS, formal_harness.vh): the frame length, as the beat counter is hidden
localparam ENTRY_BYTES = 32;
localparam BEATS = 4;

wire [15:0] cq_producer_index;
wire        s_cqe_ready;
wire [63:0] m_write_cmd_addr;
wire [15:0] m_write_cmd_len;
wire        m_write_cmd_valid;
wire [63:0] m_axis_tdata;
wire [7:0]  m_axis_tkeep;
wire        m_axis_tvalid;
wire        m_axis_tlast;
wire        full;

roce_completion_queue #(.DATA_WIDTH(64)) dut (
    .clk(clk), .rst(rst),
    .cq_base(cq_base), .cq_log_size(cq_log_size), .cq_consumer_index(cq_consumer_index),
    .cq_restart(1'b0), .cq_producer_index(cq_producer_index),
    .s_cqe_valid(s_cqe_valid), .s_cqe_ready(s_cqe_ready), .s_cqe_wr_id(s_cqe_wr_id),
    .s_cqe_byte_len(s_cqe_byte_len), .s_cqe_immediate(s_cqe_immediate),
    .s_cqe_immediate_valid(s_cqe_immediate_valid), .s_cqe_qpn(s_cqe_qpn), .s_cqe_opcode(s_cqe_opcode),
    .s_cqe_status(s_cqe_status),
    .m_write_cmd_addr(m_write_cmd_addr), .m_write_cmd_len(m_write_cmd_len), .m_write_cmd_valid(m_write_cmd_valid),
    .m_write_cmd_ready(m_write_cmd_ready),
    .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep), .m_axis_tvalid(m_axis_tvalid),
    .m_axis_tready(m_axis_tready), .m_axis_tlast(m_axis_tlast),
    .full(full)
);

`include "formal_harness.vh"

// The host's side: the ring is set up once (base and size held; a restart is outside this
// proof), and the consumer index starts at 0 and only moves forward, never past what was produced
reg [63:0] first_base;
reg [3:0]  first_log_size;
reg [15:0] taken = 16'd0;
reg [15:0] previous_consumer = 16'd0;
reg [16:0] previous_unconsumed = 17'd0;
wire        completion_taken = s_cqe_valid && s_cqe_ready;
wire [15:0] ring_entries = 16'd1 << cq_log_size;
wire [16:0] unconsumed = {1'b0, taken - cq_consumer_index};

always @(posedge clk) begin
    if (rst) begin
        first_base <= cq_base;
        first_log_size <= cq_log_size;
    end
    previous_consumer <= cq_consumer_index;
    previous_unconsumed <= unconsumed + {16'd0, completion_taken};
    if (completion_taken) taken <= taken + 16'd1;
    if (rst) begin
        taken <= 16'd0;
        previous_unconsumed <= 17'd0;
    end
end

always @(*) begin
    assume(cq_log_size != 4'd0);
    if (past_valid && !rst) begin
        assume(cq_base == first_base && cq_log_size == first_log_size);
        assume(unconsumed <= previous_unconsumed);
    end
    if (rst) assume(cq_consumer_index == 16'd0);
end

axis_handshake_rules #(.PAYLOAD_WIDTH(80), .ENVIRONMENT(0)) command_rules (
    .clk(clk), .rst(rst), .valid(m_write_cmd_valid), .ready(m_write_cmd_ready),
    .payload({m_write_cmd_addr, m_write_cmd_len}));
axis_handshake_rules #(.PAYLOAD_WIDTH(73), .ENVIRONMENT(0)) entry_rules (
    .clk(clk), .rst(rst), .valid(m_axis_tvalid), .ready(m_axis_tready),
    .payload({m_axis_tdata, m_axis_tkeep, m_axis_tlast}));

wire [15:0] written_slot = (cq_producer_index - 16'd1) & (ring_entries - 16'd1);

always @(*) begin
    if (past_valid && !rst) begin
        // Never overwrite: a completion is taken only into a slot the host has consumed
        if (completion_taken) assert(unconsumed < {1'b0, ring_entries});
        assert(full == (unconsumed >= {1'b0, ring_entries}));
        assert(cq_producer_index == taken);
        // The write goes to the slot the producer index named when the completion was taken
        if (m_write_cmd_valid)
            assert(m_write_cmd_addr == cq_base + {43'd0, written_slot, 5'd0} && m_write_cmd_len == ENTRY_BYTES);
    end
end

// One 4-beat frame per entry, every byte of each beat enabled
reg [2:0] beats_in_frame = 3'd0;
reg [1:0] frames_owed = 2'd0;
always @(posedge clk) begin
    if (m_axis_tvalid && m_axis_tready) beats_in_frame <= m_axis_tlast ? 3'd0 : beats_in_frame + 3'd1;
    frames_owed <= frames_owed + {1'b0, completion_taken} - {1'b0, m_axis_tvalid && m_axis_tready && m_axis_tlast};
    if (rst) begin
        beats_in_frame <= 3'd0;
        frames_owed <= 2'd0;
    end
end

always @(*) begin
    if (BOUNDED_CHECKS && past_valid && !rst) begin
        if (m_axis_tvalid) begin
            assert(m_axis_tkeep == 8'hFF);
            assert(m_axis_tlast == (beats_in_frame == BEATS - 1));
            assert(frames_owed == 2'd1);
        end
        assert(frames_owed <= 2'd1);
    end
end

always @(*) begin
    if (past_valid && !rst) begin
        cover(full && cq_log_size == 4'd1);
        cover(completion_taken && taken == 16'd2 && cq_log_size == 4'd1);
    end
end

endmodule
