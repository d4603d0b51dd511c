// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// AXI4 write arbiter: PORTS write masters share one slave, round-robin per burst, write responses routed back by ID
`resetall
`timescale 1ns / 1ps
`default_nettype none

// AXI4 write data carries no ID: the slave takes W beats in the order of the addresses. So a
// granted port holds the arbiter from its address until its WLAST has passed, and only then is
// the next address granted; bursts never interleave and always follow address order. Each
// address goes out with its port's index above the master's own ID bits, and the slave's echo
// of that ID routes the write response back with no state kept here.
//
// The price of the simple lock is one idle write data cycle per burst (the next grant comes the
// cycle after WLAST) and no second address ahead of the data. The W channel is combinational;
// W beats of a granted burst may reach the slave before its address does, as AXI4 permits.
module axi_write_arbiter #(
    // Number of write masters (2 or more)
    parameter PORTS = 3,
    // Width of the write data bus in bits (a multiple of 8)
    parameter DATA_WIDTH = 64,
    // Width of byte addresses
    parameter ADDR_WIDTH = 64,
    // Width of each master's awid and bid
    parameter S_ID_WIDTH = 4,
    // Width of the slave side's awid and bid: the master's ID with the port index above it
    // (must be S_ID_WIDTH + $clog2(PORTS))
    parameter M_ID_WIDTH = S_ID_WIDTH + $clog2(PORTS)
) (
    input  wire                          clk,
    input  wire                          rst,

    // Port p's signals are bits [p*W +: W] of each vector, W the width of one port's signal
    input  wire [PORTS*S_ID_WIDTH-1:0]   s_axi_awid,
    input  wire [PORTS*ADDR_WIDTH-1:0]   s_axi_awaddr,
    input  wire [PORTS*8-1:0]            s_axi_awlen,
    input  wire [PORTS*3-1:0]            s_axi_awsize,
    input  wire [PORTS*2-1:0]            s_axi_awburst,
    input  wire [PORTS-1:0]              s_axi_awlock,
    input  wire [PORTS*4-1:0]            s_axi_awcache,
    input  wire [PORTS*3-1:0]            s_axi_awprot,
    input  wire [PORTS-1:0]              s_axi_awvalid,
    output wire [PORTS-1:0]              s_axi_awready,
    input  wire [PORTS*DATA_WIDTH-1:0]   s_axi_wdata,
    input  wire [PORTS*DATA_WIDTH/8-1:0] s_axi_wstrb,
    input  wire [PORTS-1:0]              s_axi_wlast,
    input  wire [PORTS-1:0]              s_axi_wvalid,
    output wire [PORTS-1:0]              s_axi_wready,
    output wire [PORTS*S_ID_WIDTH-1:0]   s_axi_bid,
    output wire [PORTS*2-1:0]            s_axi_bresp,
    output wire [PORTS-1:0]              s_axi_bvalid,
    input  wire [PORTS-1:0]              s_axi_bready,

    output wire [M_ID_WIDTH-1:0]         m_axi_awid,
    output wire [ADDR_WIDTH-1:0]         m_axi_awaddr,
    output wire [7:0]                    m_axi_awlen,
    output wire [2:0]                    m_axi_awsize,
    output wire [1:0]                    m_axi_awburst,
    output wire                          m_axi_awlock,
    output wire [3:0]                    m_axi_awcache,
    output wire [2:0]                    m_axi_awprot,
    output wire                          m_axi_awvalid,
    input  wire                          m_axi_awready,
    output wire [DATA_WIDTH-1:0]         m_axi_wdata,
    output wire [DATA_WIDTH/8-1:0]       m_axi_wstrb,
    output wire                          m_axi_wlast,
    output wire                          m_axi_wvalid,
    input  wire                          m_axi_wready,
    input  wire [M_ID_WIDTH-1:0]         m_axi_bid,
    input  wire [1:0]                    m_axi_bresp,
    input  wire                          m_axi_bvalid,
    output wire                          m_axi_bready
);

// The port index sits in the ID bits above the master's. With PORTS not a power of two, an
// index that names no port is never sent, so a response carrying one (a slave that does not
// echo IDs) is never accepted.
localparam PORT_INDEX_WIDTH = $clog2(PORTS);
localparam STRB_WIDTH = DATA_WIDTH / 8;
localparam AW_WIDTH = M_ID_WIDTH + ADDR_WIDTH + 8 + 3 + 2 + 1 + 4 + 3;

initial begin
    if (PORTS < 2) begin
        $error("Error: PORTS must be 2 or more (instance %m)");
        $finish;
    end
    if (S_ID_WIDTH < 1 || M_ID_WIDTH != S_ID_WIDTH + PORT_INDEX_WIDTH) begin
        $error("Error: S_ID_WIDTH must be 1 or more and M_ID_WIDTH = S_ID_WIDTH + $clog2(PORTS) (instance %m)");
        $finish;
    end
    if (DATA_WIDTH < 8 || DATA_WIDTH % 8 != 0) begin
        $error("Error: DATA_WIDTH must be a multiple of 8 (instance %m)");
        $finish;
    end
end

// ---- Address channel: one grant per burst, held until the burst's last data beat ----

wire                        grant_valid;
wire [PORT_INDEX_WIDTH-1:0] grant_port;
wire                        address_accepted;

// The port whose burst owns the write data channel, from its address until its WLAST
reg                        write_locked;
reg [PORT_INDEX_WIDTH-1:0] write_port;

rr_arbiter #(
    .PORTS(PORTS),
    .INDEX_WIDTH(PORT_INDEX_WIDTH)
) arbiter_inst (
    .clk(clk),
    .rst(rst),
    .request(s_axi_awvalid),
    .grant_taken(address_accepted),
    .grant_valid(grant_valid),
    .grant_index(grant_port)
);

// One address register is enough: the lock lets no second address in before the first burst's
// data has passed, and ready towards the masters comes from registers only.
reg [AW_WIDTH-1:0] output_address;
reg                output_valid;

assign address_accepted = grant_valid && !write_locked && !output_valid;

assign s_axi_awready = address_accepted ? {{PORTS-1{1'b0}}, 1'b1} << grant_port : {PORTS{1'b0}};

assign {m_axi_awid, m_axi_awaddr, m_axi_awlen, m_axi_awsize, m_axi_awburst, m_axi_awlock,
        m_axi_awcache, m_axi_awprot} = output_address;
assign m_axi_awvalid = output_valid;

// ---- Write data channel: the locked port's beats, combinationally ----

wire w_beat_taken = m_axi_wvalid && m_axi_wready;

assign m_axi_wdata  = s_axi_wdata[write_port*DATA_WIDTH +: DATA_WIDTH];
assign m_axi_wstrb  = s_axi_wstrb[write_port*STRB_WIDTH +: STRB_WIDTH];
assign m_axi_wlast  = s_axi_wlast[write_port];
assign m_axi_wvalid = write_locked && s_axi_wvalid[write_port];
assign s_axi_wready = write_locked && m_axi_wready ? {{PORTS-1{1'b0}}, 1'b1} << write_port : {PORTS{1'b0}};

always @(posedge clk) begin
    if (address_accepted) begin
        output_address <= {
            grant_port,
            s_axi_awid[grant_port*S_ID_WIDTH +: S_ID_WIDTH],
            s_axi_awaddr[grant_port*ADDR_WIDTH +: ADDR_WIDTH],
            s_axi_awlen[grant_port*8 +: 8],
            s_axi_awsize[grant_port*3 +: 3],
            s_axi_awburst[grant_port*2 +: 2],
            s_axi_awlock[grant_port],
            s_axi_awcache[grant_port*4 +: 4],
            s_axi_awprot[grant_port*3 +: 3]
        };
        output_valid <= 1'b1;
        write_locked <= 1'b1;
        write_port <= grant_port;
    end else if (m_axi_awready) begin
        output_valid <= 1'b0;
    end
    if (w_beat_taken && m_axi_wlast) begin
        write_locked <= 1'b0;
    end

    if (rst) begin
        output_valid <= 1'b0;
        write_locked <= 1'b0;
    end
end

// ---- Write response channel: every response to the port named in its ID ----

wire [PORT_INDEX_WIDTH-1:0] response_port = m_axi_bid[M_ID_WIDTH-1:S_ID_WIDTH];
wire [PORTS-1:0]            response_owner = {{PORTS-1{1'b0}}, 1'b1} << response_port;

// Every port sees the response; only its owner sees bvalid.
assign s_axi_bid    = {PORTS{m_axi_bid[S_ID_WIDTH-1:0]}};
assign s_axi_bresp  = {PORTS{m_axi_bresp}};
assign s_axi_bvalid = m_axi_bvalid ? response_owner : {PORTS{1'b0}};
// Ready waits for valid (AXI4 allows it), so the ID of an idle channel, which means nothing,
// never reaches the slave's ready.
assign m_axi_bready = m_axi_bvalid && |(s_axi_bready & response_owner);

endmodule

`resetall
