// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// AXI4 read arbiter: PORTS read masters share one slave, round-robin per burst, read data routed back by ID
`resetall
`timescale 1ns / 1ps
`default_nettype none

// Each accepted address goes out with its port's index above the master's own ID bits. The
// slave echoes the ID with every read beat, so beats find their way back with no state kept
// here, and a slave may interleave beats of different bursts as AXI4 allows. A burst address is
// one grant; a port whose rready is low holds up the read data channel (the slave's beats arrive
// in its order), but not the arbitration of the other ports' addresses.
module axi_read_arbiter #(
    // Number of read masters (2 or more)
    parameter PORTS = 3,
    // Width of the read data bus in bits
    parameter DATA_WIDTH = 64,
    // Width of byte addresses
    parameter ADDR_WIDTH = 64,
    // Width of each master's arid and rid
    parameter S_ID_WIDTH = 4,
    // Width of the slave side's arid and rid: the master's ID with the port index above it
    // (must be S_ID_WIDTH + $clog2(PORTS))
    parameter M_ID_WIDTH = S_ID_WIDTH + $clog2(PORTS)
) (
    input  wire                          clk,
    input  wire                          rst,

    // Port p's signals are bits [p*W +: W] of each vector, W the width of one port's signal
    input  wire [PORTS*S_ID_WIDTH-1:0]   s_axi_arid,
    input  wire [PORTS*ADDR_WIDTH-1:0]   s_axi_araddr,
    input  wire [PORTS*8-1:0]            s_axi_arlen,
    input  wire [PORTS*3-1:0]            s_axi_arsize,
    input  wire [PORTS*2-1:0]            s_axi_arburst,
    input  wire [PORTS-1:0]              s_axi_arlock,
    input  wire [PORTS*4-1:0]            s_axi_arcache,
    input  wire [PORTS*3-1:0]            s_axi_arprot,
    input  wire [PORTS-1:0]              s_axi_arvalid,
    output wire [PORTS-1:0]              s_axi_arready,
    output wire [PORTS*S_ID_WIDTH-1:0]   s_axi_rid,
    output wire [PORTS*DATA_WIDTH-1:0]   s_axi_rdata,
    output wire [PORTS*2-1:0]            s_axi_rresp,
    output wire [PORTS-1:0]              s_axi_rlast,
    output wire [PORTS-1:0]              s_axi_rvalid,
    input  wire [PORTS-1:0]              s_axi_rready,

    output wire [M_ID_WIDTH-1:0]         m_axi_arid,
    output wire [ADDR_WIDTH-1:0]         m_axi_araddr,
    output wire [7:0]                    m_axi_arlen,
    output wire [2:0]                    m_axi_arsize,
    output wire [1:0]                    m_axi_arburst,
    output wire                          m_axi_arlock,
    output wire [3:0]                    m_axi_arcache,
    output wire [2:0]                    m_axi_arprot,
    output wire                          m_axi_arvalid,
    input  wire                          m_axi_arready,
    input  wire [M_ID_WIDTH-1:0]         m_axi_rid,
    input  wire [DATA_WIDTH-1:0]         m_axi_rdata,
    input  wire [1:0]                    m_axi_rresp,
    input  wire                          m_axi_rlast,
    input  wire                          m_axi_rvalid,
    output wire                          m_axi_rready
);

// The port index sits in the ID bits above the master's. With PORTS not a power of two, an
// index that names no port is never sent, so a response carrying one (a slave that does not
// echo IDs) is never accepted.
localparam PORT_INDEX_WIDTH = $clog2(PORTS);
localparam AR_WIDTH = M_ID_WIDTH + ADDR_WIDTH + 8 + 3 + 2 + 1 + 4 + 3;

initial begin
    if (PORTS < 2) begin
        $error("Error: PORTS must be 2 or more (instance %m)");
        $finish;
    end
    if (S_ID_WIDTH < 1 || M_ID_WIDTH != S_ID_WIDTH + PORT_INDEX_WIDTH) begin
        $error("Error: S_ID_WIDTH must be 1 or more and M_ID_WIDTH = S_ID_WIDTH + $clog2(PORTS) (instance %m)");
        $finish;
    end
end

// ---- Address channel: one grant per burst, through a skid buffer ----

wire                        grant_valid;
wire [PORT_INDEX_WIDTH-1:0] grant_port;
wire                        address_accepted;

rr_arbiter #(
    .PORTS(PORTS),
    .INDEX_WIDTH(PORT_INDEX_WIDTH)
) arbiter_inst (
    .clk(clk),
    .rst(rst),
    .request(s_axi_arvalid),
    .grant_taken(address_accepted),
    .grant_valid(grant_valid),
    .grant_index(grant_port)
);

wire [AR_WIDTH-1:0] granted_address = {
    grant_port,
    s_axi_arid[grant_port*S_ID_WIDTH +: S_ID_WIDTH],
    s_axi_araddr[grant_port*ADDR_WIDTH +: ADDR_WIDTH],
    s_axi_arlen[grant_port*8 +: 8],
    s_axi_arsize[grant_port*3 +: 3],
    s_axi_arburst[grant_port*2 +: 2],
    s_axi_arlock[grant_port],
    s_axi_arcache[grant_port*4 +: 4],
    s_axi_arprot[grant_port*3 +: 3]
};

// The output register holds the address on offer; the skid register catches the one address
// granted in the cycle the slave stalls. Ready towards the masters comes from a register, so
// m_axi_arready never reaches the masters' ready paths, and one address passes per cycle.
reg [AR_WIDTH-1:0] output_address, skid_address;
reg                output_valid, skid_valid;

assign address_accepted = grant_valid && !skid_valid;

assign s_axi_arready = address_accepted ? {{PORTS-1{1'b0}}, 1'b1} << grant_port : {PORTS{1'b0}};

assign {m_axi_arid, m_axi_araddr, m_axi_arlen, m_axi_arsize, m_axi_arburst, m_axi_arlock,
        m_axi_arcache, m_axi_arprot} = output_address;
assign m_axi_arvalid = output_valid;

always @(posedge clk) begin
    if (!output_valid || m_axi_arready) begin
        if (skid_valid) begin
            output_address <= skid_address;
            output_valid <= 1'b1;
            skid_valid <= 1'b0;
        end else begin
            output_address <= granted_address;
            output_valid <= address_accepted;
        end
    end else if (address_accepted) begin
        skid_address <= granted_address;
        skid_valid <= 1'b1;
    end

    if (rst) begin
        output_valid <= 1'b0;
        skid_valid <= 1'b0;
    end
end

// ---- Read data channel: every beat to the port named in its ID, combinationally ----

wire [PORT_INDEX_WIDTH-1:0] response_port = m_axi_rid[M_ID_WIDTH-1:S_ID_WIDTH];
wire [PORTS-1:0]            response_owner = {{PORTS-1{1'b0}}, 1'b1} << response_port;

// Every port sees the beat; only its owner sees rvalid.
assign s_axi_rid    = {PORTS{m_axi_rid[S_ID_WIDTH-1:0]}};
assign s_axi_rdata  = {PORTS{m_axi_rdata}};
assign s_axi_rresp  = {PORTS{m_axi_rresp}};
assign s_axi_rlast  = {PORTS{m_axi_rlast}};
assign s_axi_rvalid = m_axi_rvalid ? response_owner : {PORTS{1'b0}};
// Ready waits for valid (AXI4 allows it), so the ID of an idle channel, which means nothing,
// never reaches the slave's ready.
assign m_axi_rready = m_axi_rvalid && |(s_axi_rready & response_owner);

endmodule

`resetall
