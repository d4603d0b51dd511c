// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// ACK latency: cycles from a request's last beat in to the first beat of the ACK it earned, min/max/sum/count
`resetall
`timescale 1ns / 1ps
`default_nettype none

// A request's end time (the parser's verdict on its last beat) waits in a queue until the
// responder takes the request; the responses the responder hands to the frame builder carry
// that time in a second queue, and leave it when their frame's first beat goes out. Only ACKs
// are measured; NAKs and READ responses only keep the queues in step.
module roce_ack_latency #(
    // Requests the parser can hold before the responder takes them (a power of two)
    parameter REQUEST_DEPTH = 32,
    // Responses the frame builder can hold before their first beat (a power of two)
    parameter RESPONSE_DEPTH = 4
) (
    input  wire        clk,
    input  wire        rst,

    input  wire        request_received,
    // Every good frame's header leaves the parser in order; only requests reach the responder
    input  wire        request_taken,
    input  wire        taken_is_request,
    input  wire        response_taken,
    input  wire        response_is_ack,
    input  wire        frame_started,

    output wire [31:0] latency_min,
    output wire [31:0] latency_max,
    output wire [31:0] latency_sum,
    output wire [31:0] latency_count
);

localparam REQUEST_INDEX_WIDTH = $clog2(REQUEST_DEPTH);
localparam RESPONSE_INDEX_WIDTH = $clog2(RESPONSE_DEPTH);

initial begin
    if (REQUEST_DEPTH < 2 || RESPONSE_DEPTH < 2 || (REQUEST_DEPTH & (REQUEST_DEPTH - 1)) != 0
            || (RESPONSE_DEPTH & (RESPONSE_DEPTH - 1)) != 0) begin
        $error("Error: REQUEST_DEPTH and RESPONSE_DEPTH must be powers of two, 2 or more (instance %m)");
        $finish;
    end
end

reg [31:0] now;
reg [31:0] request_end [0:REQUEST_DEPTH-1];
reg [REQUEST_INDEX_WIDTH-1:0] request_write, request_read;
reg [31:0] current_request_end;
reg [32:0] response [0:RESPONSE_DEPTH-1];  // {is an ACK, its request's end}
reg [RESPONSE_INDEX_WIDTH-1:0] response_write, response_read;

wire [32:0] oldest_response = response[response_read];
wire [31:0] latency = now - oldest_response[31:0];

always @(posedge clk) begin
    now <= now + 32'd1;
    if (request_received) begin
        request_end[request_write] <= now;
        request_write <= request_write + 1'b1;
    end
    if (request_taken) begin
        if (taken_is_request) begin
            current_request_end <= request_end[request_read];
        end
        request_read <= request_read + 1'b1;
    end
    if (response_taken) begin
        response[response_write] <= {response_is_ack, current_request_end};
        response_write <= response_write + 1'b1;
    end
    if (frame_started) begin
        response_read <= response_read + 1'b1;
    end
    if (rst) begin
        now <= 32'd0;
        request_write <= {REQUEST_INDEX_WIDTH{1'b0}};
        request_read <= {REQUEST_INDEX_WIDTH{1'b0}};
        current_request_end <= 32'd0;
        response_write <= {RESPONSE_INDEX_WIDTH{1'b0}};
        response_read <= {RESPONSE_INDEX_WIDTH{1'b0}};
    end
end

latency_stats stats_inst (
    .clk(clk), .rst(rst),
    .sample_valid(frame_started && oldest_response[32]), .sample(latency),
    .latency_min(latency_min), .latency_max(latency_max), .latency_sum(latency_sum), .latency_count(latency_count)
);

endmodule

`resetall
