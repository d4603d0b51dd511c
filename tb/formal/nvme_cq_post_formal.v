// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Formal harness of nvme_cq_post, the admin CQ (NVMe base specification: a CQ of N entries is
// full when tail + 1 == head mod N, and a completion is never written into a full CQ): with the
// engine posting only while cq_full is low, no entry is ever written into a slot the host has
// not released with its head doorbell, each entry goes to the slot after the last with the
// phase tag that flips on every wrap, and the write to the host is held until taken.
`default_nettype none

module nvme_cq_post_formal (
    input wire        clk,
    input wire        rst,
    input wire [11:0] cq_size,
    input wire [63:0] cq_base,
    // The host: takes one more entry off the CQ (in its own memory), and rings its head doorbell
    input wire        host_consumes,
    input wire        cq_head_valid,
    input wire [11:0] cq_head_value,
    // The engine: an admin completion to post
    input wire        post,
    input wire [15:0] post_cid,
    input wire [7:0]  post_status_code,
    // The PCIe requester
    input wire        write_ready,
    input wire        write_done
);

wire         cq_full, post_free, drain_pending, posting, interrupt_request, interrupt_admin;
wire         event_post, event_completion, completion_drained;
wire         write_valid;
wire [63:0]  write_address;
wire [511:0] write_data;
wire [4:0]   interrupt_vector;
wire [7:0]   completion_status_code;
wire [2:0]   completion_status_type;

nvme_cq_post dut (
    .clk(clk), .rst(rst), .enabled(1'b1),
    .cq_size(cq_size), .cq_base(cq_base), .cq_head_valid(cq_head_valid), .cq_head_value(cq_head_value),
    .cq_full(cq_full),
    .post(post), .hold_drain_slot(1'b0), .post_admin(1'b1), .post_cid(post_cid), .post_sqid(16'd0),
    .post_sq_head(16'd0), .post_status_code(post_status_code), .post_status_type(3'd0), .post_result(32'd0),
    .io_slot_address(64'd0), .io_slot_phase(1'b0), .io_vector(5'd0), .io_interrupts(1'b0),
    .drain_done(1'b0), .drain_status(8'd0),
    .post_free(post_free), .drain_pending(drain_pending), .posting(posting),
    .write_valid(write_valid), .write_ready(write_ready), .write_address(write_address), .write_data(write_data),
    .write_done(write_done), .interrupt_request(interrupt_request), .interrupt_vector(interrupt_vector),
    .interrupt_admin(interrupt_admin),
    .event_post(event_post), .event_completion(event_completion), .completion_status_code(completion_status_code),
    .completion_status_type(completion_status_type), .completion_drained(completion_drained)
);

`include "formal_harness.vh"

// The CQ as the host sees it, in slots: the next slot the controller writes (tail), the next the
// host reads (host), and the head it last rang. An empty CQ has tail == head, so slots alone tell
// how many entries are unconsumed.
reg [11:0] first_size;
reg [63:0] first_base;
reg [11:0] tail_slot, host_slot, rung_slot;
reg        phase;
reg        in_flight;
function [11:0] next_slot(input [11:0] slot);
    next_slot = slot == first_size ? 12'd0 : slot + 12'd1;
endfunction

always @(posedge clk) begin
    if (post) begin
        tail_slot <= next_slot(tail_slot);
        if (tail_slot == first_size) phase <= !phase;
    end
    if (host_consumes) host_slot <= next_slot(host_slot);
    if (cq_head_valid) rung_slot <= cq_head_value;
    if (write_valid && write_ready) in_flight <= 1'b1;
    if (write_done) in_flight <= 1'b0;
    if (rst) begin
        first_size <= cq_size;
        first_base <= cq_base;
        tail_slot <= 12'd0;
        host_slot <= 12'd0;
        rung_slot <= 12'd0;
        phase <= 1'b1;
        in_flight <= 1'b0;
    end
end

always @(*) begin
    // CQs of 2 to 4 entries: enough to wrap several times within the bounded depth
    assume(cq_size >= 12'd1 && cq_size <= 12'd3 && cq_base[3:0] == 4'd0);
    if (past_valid && !rst) begin
        assume(cq_size == first_size && cq_base == first_base);
        // The host reads only entries the controller has written, and rings the head it has reached
        if (host_consumes) assume(host_slot != tail_slot);
        if (cq_head_valid) assume(cq_head_value == host_slot);
        // The engine posts only when it may, and never into a full CQ; the requester reports a
        // write done only after it took one
        if (post) assume(post_free && !cq_full);
        if (write_done) assume(in_flight);
    end
    if (rst) assume(!post && !cq_head_valid && !host_consumes && !write_done);
end

axis_handshake_rules #(.PAYLOAD_WIDTH(192), .ENVIRONMENT(0)) write_rules (
    .clk(clk), .rst(rst), .valid(write_valid), .ready(write_ready), .payload({write_address, write_data[127:0]}));

// The slot and phase each post must use, checked on the write that follows it
reg        posted = 1'b0;
reg [11:0] posted_slot;
reg        posted_phase;
reg [15:0] posted_cid;
always @(posedge clk) begin
    posted <= post && !rst;
    posted_slot <= tail_slot;
    posted_phase <= phase;
    posted_cid <= post_cid;
end

always @(*) begin
    if (BOUNDED_CHECKS && past_valid && !rst) begin
        // Full exactly when writing one more entry would reach the head the host rang: the
        // controller never takes a slot the host has not released
        assert(cq_full == (next_slot(tail_slot) == rung_slot));
        if (posted) begin
            assert(write_valid);
            assert(write_address == first_base + {48'd0, posted_slot, 4'd0});
            assert(write_data[112] == posted_phase);     // DW3 bit 16: the phase tag
            assert(write_data[111:96] == posted_cid);    // DW3 15:0: the command's CID
        end
    end
end

always @(*) begin
    if (past_valid && !rst) begin
        cover(cq_full && cq_size == 12'd3);
        cover(posted && !posted_phase && cq_size == 12'd1);
    end
end

endmodule
