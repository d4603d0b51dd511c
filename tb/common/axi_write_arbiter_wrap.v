// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Test wrapper: axi_write_arbiter with each master on its own s<NN>_axi_* signals, for cocotbext-axi
`resetall
`timescale 1ns / 1ps
`default_nettype none

// cocotbext-axi drives a bus through one simulator handle per signal and waits on edges of
// valid and ready; cocotb has no handle for one port's slice of a flattened vector (Icarus
// cannot call back on a bit-select), so the testbench reaches up to 4 ports by name here.
// Slots from PORTS up have no arbiter port: their outputs stay low, their inputs go nowhere.
module axi_write_arbiter_wrap #(
    // Number of write masters connected, 2 to 4
    parameter PORTS = 3,
    // Width of the data bus in bits
    parameter DATA_WIDTH = 64,
    // Width of byte addresses
    parameter ADDR_WIDTH = 64,
    // Width of each master's IDs
    parameter S_ID_WIDTH = 4,
    // Width of the slave side's IDs
    parameter M_ID_WIDTH = S_ID_WIDTH + $clog2(PORTS)
) (
    input  wire                    clk,
    input  wire                    rst,

    input  wire [S_ID_WIDTH-1:0]   s00_axi_awid,
    input  wire [ADDR_WIDTH-1:0]   s00_axi_awaddr,
    input  wire [7:0]              s00_axi_awlen,
    input  wire [2:0]              s00_axi_awsize,
    input  wire [1:0]              s00_axi_awburst,
    input  wire                    s00_axi_awlock,
    input  wire [3:0]              s00_axi_awcache,
    input  wire [2:0]              s00_axi_awprot,
    input  wire                    s00_axi_awvalid,
    output wire                    s00_axi_awready,
    input  wire [DATA_WIDTH-1:0]   s00_axi_wdata,
    input  wire [DATA_WIDTH/8-1:0] s00_axi_wstrb,
    input  wire                    s00_axi_wlast,
    input  wire                    s00_axi_wvalid,
    output wire                    s00_axi_wready,
    output wire [S_ID_WIDTH-1:0]   s00_axi_bid,
    output wire [1:0]              s00_axi_bresp,
    output wire                    s00_axi_bvalid,
    input  wire                    s00_axi_bready,

    input  wire [S_ID_WIDTH-1:0]   s01_axi_awid,
    input  wire [ADDR_WIDTH-1:0]   s01_axi_awaddr,
    input  wire [7:0]              s01_axi_awlen,
    input  wire [2:0]              s01_axi_awsize,
    input  wire [1:0]              s01_axi_awburst,
    input  wire                    s01_axi_awlock,
    input  wire [3:0]              s01_axi_awcache,
    input  wire [2:0]              s01_axi_awprot,
    input  wire                    s01_axi_awvalid,
    output wire                    s01_axi_awready,
    input  wire [DATA_WIDTH-1:0]   s01_axi_wdata,
    input  wire [DATA_WIDTH/8-1:0] s01_axi_wstrb,
    input  wire                    s01_axi_wlast,
    input  wire                    s01_axi_wvalid,
    output wire                    s01_axi_wready,
    output wire [S_ID_WIDTH-1:0]   s01_axi_bid,
    output wire [1:0]              s01_axi_bresp,
    output wire                    s01_axi_bvalid,
    input  wire                    s01_axi_bready,

    input  wire [S_ID_WIDTH-1:0]   s02_axi_awid,
    input  wire [ADDR_WIDTH-1:0]   s02_axi_awaddr,
    input  wire [7:0]              s02_axi_awlen,
    input  wire [2:0]              s02_axi_awsize,
    input  wire [1:0]              s02_axi_awburst,
    input  wire                    s02_axi_awlock,
    input  wire [3:0]              s02_axi_awcache,
    input  wire [2:0]              s02_axi_awprot,
    input  wire                    s02_axi_awvalid,
    output wire                    s02_axi_awready,
    input  wire [DATA_WIDTH-1:0]   s02_axi_wdata,
    input  wire [DATA_WIDTH/8-1:0] s02_axi_wstrb,
    input  wire                    s02_axi_wlast,
    input  wire                    s02_axi_wvalid,
    output wire                    s02_axi_wready,
    output wire [S_ID_WIDTH-1:0]   s02_axi_bid,
    output wire [1:0]              s02_axi_bresp,
    output wire                    s02_axi_bvalid,
    input  wire                    s02_axi_bready,

    input  wire [S_ID_WIDTH-1:0]   s03_axi_awid,
    input  wire [ADDR_WIDTH-1:0]   s03_axi_awaddr,
    input  wire [7:0]              s03_axi_awlen,
    input  wire [2:0]              s03_axi_awsize,
    input  wire [1:0]              s03_axi_awburst,
    input  wire                    s03_axi_awlock,
    input  wire [3:0]              s03_axi_awcache,
    input  wire [2:0]              s03_axi_awprot,
    input  wire                    s03_axi_awvalid,
    output wire                    s03_axi_awready,
    input  wire [DATA_WIDTH-1:0]   s03_axi_wdata,
    input  wire [DATA_WIDTH/8-1:0] s03_axi_wstrb,
    input  wire                    s03_axi_wlast,
    input  wire                    s03_axi_wvalid,
    output wire                    s03_axi_wready,
    output wire [S_ID_WIDTH-1:0]   s03_axi_bid,
    output wire [1:0]              s03_axi_bresp,
    output wire                    s03_axi_bvalid,
    input  wire                    s03_axi_bready,

    output wire [M_ID_WIDTH-1:0]   m_axi_awid,
    output wire [ADDR_WIDTH-1:0]   m_axi_awaddr,
    output wire [7:0]              m_axi_awlen,
    output wire [2:0]              m_axi_awsize,
    output wire [1:0]              m_axi_awburst,
    output wire                    m_axi_awlock,
    output wire [3:0]              m_axi_awcache,
    output wire [2:0]              m_axi_awprot,
    output wire                    m_axi_awvalid,
    input  wire                    m_axi_awready,
    output wire [DATA_WIDTH-1:0]   m_axi_wdata,
    output wire [DATA_WIDTH/8-1:0] m_axi_wstrb,
    output wire                    m_axi_wlast,
    output wire                    m_axi_wvalid,
    input  wire                    m_axi_wready,
    input  wire [M_ID_WIDTH-1:0]   m_axi_bid,
    input  wire [1:0]              m_axi_bresp,
    input  wire                    m_axi_bvalid,
    output wire                    m_axi_bready
);

localparam SLOTS = 4;

initial begin
    if (PORTS < 2 || PORTS > SLOTS) begin
        $error("Error: the wrapper has slots for 2 to 4 ports (instance %m)");
        $finish;
    end
end

// Every slot's signal side by side, port p at bits [p*W +: W] as the arbiter takes them
wire [SLOTS*S_ID_WIDTH-1:0]   slot_awid = {s03_axi_awid, s02_axi_awid, s01_axi_awid, s00_axi_awid};
wire [SLOTS*ADDR_WIDTH-1:0]   slot_awaddr = {s03_axi_awaddr, s02_axi_awaddr, s01_axi_awaddr, s00_axi_awaddr};
wire [SLOTS*8-1:0]            slot_awlen = {s03_axi_awlen, s02_axi_awlen, s01_axi_awlen, s00_axi_awlen};
wire [SLOTS*3-1:0]            slot_awsize = {s03_axi_awsize, s02_axi_awsize, s01_axi_awsize, s00_axi_awsize};
wire [SLOTS*2-1:0]            slot_awburst = {s03_axi_awburst, s02_axi_awburst, s01_axi_awburst, s00_axi_awburst};
wire [SLOTS-1:0]              slot_awlock = {s03_axi_awlock, s02_axi_awlock, s01_axi_awlock, s00_axi_awlock};
wire [SLOTS*4-1:0]            slot_awcache = {s03_axi_awcache, s02_axi_awcache, s01_axi_awcache, s00_axi_awcache};
wire [SLOTS*3-1:0]            slot_awprot = {s03_axi_awprot, s02_axi_awprot, s01_axi_awprot, s00_axi_awprot};
wire [SLOTS-1:0]              slot_awvalid = {s03_axi_awvalid, s02_axi_awvalid, s01_axi_awvalid, s00_axi_awvalid};
wire [SLOTS-1:0]              slot_awready;
wire [SLOTS*DATA_WIDTH-1:0]   slot_wdata = {s03_axi_wdata, s02_axi_wdata, s01_axi_wdata, s00_axi_wdata};
wire [SLOTS*DATA_WIDTH/8-1:0] slot_wstrb = {s03_axi_wstrb, s02_axi_wstrb, s01_axi_wstrb, s00_axi_wstrb};
wire [SLOTS-1:0]              slot_wlast = {s03_axi_wlast, s02_axi_wlast, s01_axi_wlast, s00_axi_wlast};
wire [SLOTS-1:0]              slot_wvalid = {s03_axi_wvalid, s02_axi_wvalid, s01_axi_wvalid, s00_axi_wvalid};
wire [SLOTS-1:0]              slot_wready;
wire [SLOTS*S_ID_WIDTH-1:0]   slot_bid;
wire [SLOTS*2-1:0]            slot_bresp;
wire [SLOTS-1:0]              slot_bvalid;
wire [SLOTS-1:0]              slot_bready = {s03_axi_bready, s02_axi_bready, s01_axi_bready, s00_axi_bready};

assign {s03_axi_awready, s02_axi_awready, s01_axi_awready, s00_axi_awready} = slot_awready;
assign {s03_axi_wready, s02_axi_wready, s01_axi_wready, s00_axi_wready} = slot_wready;
assign {s03_axi_bid, s02_axi_bid, s01_axi_bid, s00_axi_bid} = slot_bid;
assign {s03_axi_bresp, s02_axi_bresp, s01_axi_bresp, s00_axi_bresp} = slot_bresp;
assign {s03_axi_bvalid, s02_axi_bvalid, s01_axi_bvalid, s00_axi_bvalid} = slot_bvalid;

generate
    if (PORTS < SLOTS) begin : unconnected_slots
        assign slot_awready[SLOTS-1:PORTS] = {(SLOTS-PORTS){1'b0}};
        assign slot_wready[SLOTS-1:PORTS] = {(SLOTS-PORTS){1'b0}};
        assign slot_bid[SLOTS*S_ID_WIDTH-1:PORTS*S_ID_WIDTH] = {((SLOTS-PORTS)*S_ID_WIDTH){1'b0}};
        assign slot_bresp[SLOTS*2-1:PORTS*2] = {((SLOTS-PORTS)*2){1'b0}};
        assign slot_bvalid[SLOTS-1:PORTS] = {(SLOTS-PORTS){1'b0}};
        // Lint takes a signal whose name holds "unused" as left unread on purpose
        wire unused_inputs = &{1'b0,
            slot_awid[SLOTS*S_ID_WIDTH-1:PORTS*S_ID_WIDTH],
            slot_awaddr[SLOTS*ADDR_WIDTH-1:PORTS*ADDR_WIDTH],
            slot_awlen[SLOTS*8-1:PORTS*8],
            slot_awsize[SLOTS*3-1:PORTS*3],
            slot_awburst[SLOTS*2-1:PORTS*2],
            slot_awlock[SLOTS-1:PORTS],
            slot_awcache[SLOTS*4-1:PORTS*4],
            slot_awprot[SLOTS*3-1:PORTS*3],
            slot_awvalid[SLOTS-1:PORTS],
            slot_wdata[SLOTS*DATA_WIDTH-1:PORTS*DATA_WIDTH],
            slot_wstrb[SLOTS*DATA_WIDTH/8-1:PORTS*DATA_WIDTH/8],
            slot_wlast[SLOTS-1:PORTS],
            slot_wvalid[SLOTS-1:PORTS],
            slot_bready[SLOTS-1:PORTS]
        };
    end
endgenerate

axi_write_arbiter #(
    .PORTS(PORTS),
    .DATA_WIDTH(DATA_WIDTH),
    .ADDR_WIDTH(ADDR_WIDTH),
    .S_ID_WIDTH(S_ID_WIDTH),
    .M_ID_WIDTH(M_ID_WIDTH)
) arbiter_inst (
    .clk(clk),
    .rst(rst),
    .s_axi_awid(slot_awid[PORTS*S_ID_WIDTH-1:0]),
    .s_axi_awaddr(slot_awaddr[PORTS*ADDR_WIDTH-1:0]),
    .s_axi_awlen(slot_awlen[PORTS*8-1:0]),
    .s_axi_awsize(slot_awsize[PORTS*3-1:0]),
    .s_axi_awburst(slot_awburst[PORTS*2-1:0]),
    .s_axi_awlock(slot_awlock[PORTS-1:0]),
    .s_axi_awcache(slot_awcache[PORTS*4-1:0]),
    .s_axi_awprot(slot_awprot[PORTS*3-1:0]),
    .s_axi_awvalid(slot_awvalid[PORTS-1:0]),
    .s_axi_awready(slot_awready[PORTS-1:0]),
    .s_axi_wdata(slot_wdata[PORTS*DATA_WIDTH-1:0]),
    .s_axi_wstrb(slot_wstrb[PORTS*DATA_WIDTH/8-1:0]),
    .s_axi_wlast(slot_wlast[PORTS-1:0]),
    .s_axi_wvalid(slot_wvalid[PORTS-1:0]),
    .s_axi_wready(slot_wready[PORTS-1:0]),
    .s_axi_bid(slot_bid[PORTS*S_ID_WIDTH-1:0]),
    .s_axi_bresp(slot_bresp[PORTS*2-1:0]),
    .s_axi_bvalid(slot_bvalid[PORTS-1:0]),
    .s_axi_bready(slot_bready[PORTS-1:0]),
    .m_axi_awid(m_axi_awid),
    .m_axi_awaddr(m_axi_awaddr),
    .m_axi_awlen(m_axi_awlen),
    .m_axi_awsize(m_axi_awsize),
    .m_axi_awburst(m_axi_awburst),
    .m_axi_awlock(m_axi_awlock),
    .m_axi_awcache(m_axi_awcache),
    .m_axi_awprot(m_axi_awprot),
    .m_axi_awvalid(m_axi_awvalid),
    .m_axi_awready(m_axi_awready),
    .m_axi_wdata(m_axi_wdata),
    .m_axi_wstrb(m_axi_wstrb),
    .m_axi_wlast(m_axi_wlast),
    .m_axi_wvalid(m_axi_wvalid),
    .m_axi_wready(m_axi_wready),
    .m_axi_bid(m_axi_bid),
    .m_axi_bresp(m_axi_bresp),
    .m_axi_bvalid(m_axi_bvalid),
    .m_axi_bready(m_axi_bready)
);

endmodule

`resetall
