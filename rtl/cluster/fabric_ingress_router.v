// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Ingress router: picks a frame's egress port by its destination MAC, drops unknown ones
`resetall
`timescale 1ns / 1ps
`default_nettype none

// The destination MAC is bytes 0-5 of the frame, lanes 0-5 of its first beat (byte 0 in
// tdata[7:0]). port_mac[p*48 +: 48] holds port p's address written the usual way, first byte in
// bits 47:40, so 02:00:00:00:00:0a is 48'h02000000000a. The lowest port that matches wins. A
// frame for no port, or for the port it came in on, is taken and discarded whole, and counted.
// The route is decided from the first beat as it is offered and held to the frame's last beat.
module fabric_ingress_router #(
    // Number of switch ports
    parameter PORTS = 4,
    // This router's own port, whose frames never go back to it
    parameter PORT_INDEX = 0,
    // Width of tdata in bits (64 or more: the MAC fits the first beat)
    parameter DATA_WIDTH = 64,
    // Width of a port index
    parameter PORT_WIDTH = PORTS > 1 ? $clog2(PORTS) : 1
) (
    input  wire                    clk,
    input  wire                    rst,

    input  wire [PORTS*48-1:0]     port_mac,

    input  wire [DATA_WIDTH-1:0]   s_axis_tdata,
    input  wire                    s_axis_tvalid,
    output wire                    s_axis_tready,
    input  wire                    s_axis_tlast,

    // The beat offered on s_axis goes to port route_port when route_valid
    output wire                    route_valid,
    output wire [PORT_WIDTH-1:0]   route_port,
    // tready of the egress route_port names
    input  wire                    route_ready,

    // One-cycle pulse per frame dropped for its address
    output reg                     status_unknown_destination
);

initial begin
    if (DATA_WIDTH < 64 || PORTS < 2 || PORT_INDEX >= PORTS) begin
        $error("Error: need DATA_WIDTH >= 64, PORTS >= 2 and PORT_INDEX < PORTS (instance %m)");
        $finish;
    end
end

wire [47:0] destination = {s_axis_tdata[7:0], s_axis_tdata[15:8], s_axis_tdata[23:16],
                           s_axis_tdata[31:24], s_axis_tdata[39:32], s_axis_tdata[47:40]};

reg                  lookup_found;
reg [PORT_WIDTH-1:0] lookup_port;
integer port;
always @* begin
    lookup_found = 1'b0;
    lookup_port = {PORT_WIDTH{1'b0}};
    for (port = PORTS - 1; port >= 0; port = port - 1) begin
        if (port_mac[port*48 +: 48] == destination) begin
            lookup_found = port != PORT_INDEX;
            lookup_port = port[PORT_WIDTH-1:0];
        end
    end
end

reg                  mid_frame;
reg                  frame_routed;
reg [PORT_WIDTH-1:0] frame_port;

wire routed = mid_frame ? frame_routed : lookup_found;
assign route_port = mid_frame ? frame_port : lookup_port;
assign route_valid = s_axis_tvalid && routed;
assign s_axis_tready = routed ? route_ready : 1'b1;

always @(posedge clk) begin
    status_unknown_destination <= 1'b0;
    if (s_axis_tvalid && s_axis_tready) begin
        mid_frame <= !s_axis_tlast;
        if (!mid_frame) begin
            frame_routed <= lookup_found;
            frame_port <= lookup_port;
            status_unknown_destination <= !lookup_found;
        end
    end
    if (rst) begin
        mid_frame <= 1'b0;
        frame_routed <= 1'b0;
        frame_port <= {PORT_WIDTH{1'b0}};
        status_unknown_destination <= 1'b0;
    end
end

endmodule

`resetall
