// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Formal harness of rr_arbiter with 5 ports (not a power of two): a grant whenever someone
// requests, only to a requester, and round-robin fairness: a port that keeps requesting is
// granted before any other port is granted twice
`default_nettype none

module rr_arbiter_formal (
    input wire       clk,
    input wire       rst,
    input wire [4:0] request,
    input wire       grant_taken
);

// Bounded only (BOUNDED_CHECKS, formal_harness.vh): fairness, which counts grants since a port last
// won against the hidden last-granted register
localparam PORTS = 5;

wire       grant_valid;
wire [2:0] grant_index;

rr_arbiter #(.PORTS(PORTS)) dut (
    .clk(clk), .rst(rst), .request(request), .grant_taken(grant_taken),
    .grant_valid(grant_valid), .grant_index(grant_index)
);

`include "formal_harness.vh"

// A grant taken is final: the requester keeps requesting until then (as the arbiter's users do)
reg       offered = 1'b0;
reg [2:0] offered_index;
always @(posedge clk) begin
    offered <= grant_valid && !grant_taken && !rst;
    offered_index <= grant_index;
end
always @(*) if (offered) assume(request[offered_index]);

// Grants taken by other ports while each port has been asking
reg [3:0] grants_while_waiting [0:PORTS-1];
integer port;
always @(posedge clk) begin
    for (port = 0; port < PORTS; port = port + 1) begin
        if (rst || !request[port] || (grant_valid && grant_taken && grant_index == port))
            grants_while_waiting[port] <= 4'd0;
        else if (grant_valid && grant_taken)
            grants_while_waiting[port] <= grants_while_waiting[port] + 4'd1;
    end
end

genvar watched;
generate
    for (watched = 0; watched < PORTS; watched = watched + 1) begin : fairness
        initial grants_while_waiting[watched] = 4'd0;
        always @(*) begin
            if (BOUNDED_CHECKS && past_valid && !rst) assert(grants_while_waiting[watched] < PORTS);
            if (past_valid && !rst) cover(grants_while_waiting[watched] == PORTS - 1);
        end
    end
endgenerate

always @(*) begin
    if (past_valid && !rst) begin
        assert(grant_valid == (request != 5'd0));
        if (grant_valid) assert(grant_index < PORTS && request[grant_index]);
    end
end

endmodule
