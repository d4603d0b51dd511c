// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// One direction of axi_window_split: which slave its bursts in flight went to, and whether the next may go
`resetall
`timescale 1ns / 1ps
`default_nettype none

// One direction's address channel: which slave its bursts in flight went to, and whether the next
// burst may go (to the same slave while any are in flight, to either once none is)
module axi_window_split_steer #(
    parameter MAX_IN_FLIGHT = 15
) (
    input  wire       clk,
    input  wire       rst,
    input  wire       request_valid,
    input  wire       request_slave,
    output wire       request_ready,
    output wire [1:0] slave_valid,
    input  wire [1:0] slave_ready,
    // A burst in flight was answered (its response, or its last read beat)
    input  wire       answered,
    output reg        current_slave
);

reg [7:0] in_flight;

wire may_go = in_flight == 8'd0 || (request_slave == current_slave && in_flight != MAX_IN_FLIGHT[7:0]);
assign slave_valid = {request_slave, !request_slave} & {2{request_valid && may_go}};
// Ready waits for valid: while no request is offered, its address (and so its slave) may be
// undefined, and ready must not be
assign request_ready = request_valid && may_go && slave_ready[request_slave];
wire request_taken = request_valid && request_ready;

always @(posedge clk) begin
    in_flight <= in_flight + {7'd0, request_taken} - {7'd0, answered};
    if (request_taken) begin
        current_slave <= request_slave;
    end
    if (rst) begin
        in_flight <= 8'd0;
        current_slave <= 1'b0;
    end
end

endmodule

`resetall
