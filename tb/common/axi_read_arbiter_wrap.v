// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Test wrapper: axi_read_arbiter with each master on its own s<NN>_axi_* signals, for cocotbext-axi
`resetall
`timescale 1ns / 1ps
`default_nettype none

// cocotbext-axi drives a bus through one simulator handle per signal and waits on edges of
// valid and ready; cocotb has no handle for one port's slice of a flattened vector (Icarus
// cannot call back on a bit-select), so the testbench reaches up to 4 ports by name here.
// Slots from PORTS up have no arbiter port: their outputs stay low, their inputs go nowhere.
module axi_read_arbiter_wrap #(
    // Number of read masters connected, 2 to 4
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
    input  wire                  clk,
    input  wire                  rst,

    input  wire [S_ID_WIDTH-1:0] s00_axi_arid,
    input  wire [ADDR_WIDTH-1:0] s00_axi_araddr,
    input  wire [7:0]            s00_axi_arlen,
    input  wire [2:0]            s00_axi_arsize,
    input  wire [1:0]            s00_axi_arburst,
    input  wire                  s00_axi_arlock,
    input  wire [3:0]            s00_axi_arcache,
    input  wire [2:0]            s00_axi_arprot,
    input  wire                  s00_axi_arvalid,
    output wire                  s00_axi_arready,
    output wire [S_ID_WIDTH-1:0] s00_axi_rid,
    output wire [DATA_WIDTH-1:0] s00_axi_rdata,
    output wire [1:0]            s00_axi_rresp,
    output wire                  s00_axi_rlast,
    output wire                  s00_axi_rvalid,
    input  wire                  s00_axi_rready,

    input  wire [S_ID_WIDTH-1:0] s01_axi_arid,
    input  wire [ADDR_WIDTH-1:0] s01_axi_araddr,
    input  wire [7:0]            s01_axi_arlen,
    input  wire [2:0]            s01_axi_arsize,
    input  wire [1:0]            s01_axi_arburst,
    input  wire                  s01_axi_arlock,
    input  wire [3:0]            s01_axi_arcache,
    input  wire [2:0]            s01_axi_arprot,
    input  wire                  s01_axi_arvalid,
    output wire                  s01_axi_arready,
    output wire [S_ID_WIDTH-1:0] s01_axi_rid,
    output wire [DATA_WIDTH-1:0] s01_axi_rdata,
    output wire [1:0]            s01_axi_rresp,
    output wire                  s01_axi_rlast,
    output wire                  s01_axi_rvalid,
    input  wire                  s01_axi_rready,

    input  wire [S_ID_WIDTH-1:0] s02_axi_arid,
    input  wire [ADDR_WIDTH-1:0] s02_axi_araddr,
    input  wire [7:0]            s02_axi_arlen,
    input  wire [2:0]            s02_axi_arsize,
    input  wire [1:0]            s02_axi_arburst,
    input  wire                  s02_axi_arlock,
    input  wire [3:0]            s02_axi_arcache,
    input  wire [2:0]            s02_axi_arprot,
    input  wire                  s02_axi_arvalid,
    output wire                  s02_axi_arready,
    output wire [S_ID_WIDTH-1:0] s02_axi_rid,
    output wire [DATA_WIDTH-1:0] s02_axi_rdata,
    output wire [1:0]            s02_axi_rresp,
    output wire                  s02_axi_rlast,
    output wire                  s02_axi_rvalid,
    input  wire                  s02_axi_rready,

    input  wire [S_ID_WIDTH-1:0] s03_axi_arid,
    input  wire [ADDR_WIDTH-1:0] s03_axi_araddr,
    input  wire [7:0]            s03_axi_arlen,
    input  wire [2:0]            s03_axi_arsize,
    input  wire [1:0]            s03_axi_arburst,
    input  wire                  s03_axi_arlock,
    input  wire [3:0]            s03_axi_arcache,
    input  wire [2:0]            s03_axi_arprot,
    input  wire                  s03_axi_arvalid,
    output wire                  s03_axi_arready,
    output wire [S_ID_WIDTH-1:0] s03_axi_rid,
    output wire [DATA_WIDTH-1:0] s03_axi_rdata,
    output wire [1:0]            s03_axi_rresp,
    output wire                  s03_axi_rlast,
    output wire                  s03_axi_rvalid,
    input  wire                  s03_axi_rready,

    output wire [M_ID_WIDTH-1:0] m_axi_arid,
    output wire [ADDR_WIDTH-1:0] m_axi_araddr,
    output wire [7:0]            m_axi_arlen,
    output wire [2:0]            m_axi_arsize,
    output wire [1:0]            m_axi_arburst,
    output wire                  m_axi_arlock,
    output wire [3:0]            m_axi_arcache,
    output wire [2:0]            m_axi_arprot,
    output wire                  m_axi_arvalid,
    input  wire                  m_axi_arready,
    input  wire [M_ID_WIDTH-1:0] m_axi_rid,
    input  wire [DATA_WIDTH-1:0] m_axi_rdata,
    input  wire [1:0]            m_axi_rresp,
    input  wire                  m_axi_rlast,
    input  wire                  m_axi_rvalid,
    output wire                  m_axi_rready
);

localparam SLOTS = 4;

initial begin
    if (PORTS < 2 || PORTS > SLOTS) begin
        $error("Error: the wrapper has slots for 2 to 4 ports (instance %m)");
        $finish;
    end
end

// Every slot's signal side by side, port p at bits [p*W +: W] as the arbiter takes them
wire [SLOTS*S_ID_WIDTH-1:0] slot_arid = {s03_axi_arid, s02_axi_arid, s01_axi_arid, s00_axi_arid};
wire [SLOTS*ADDR_WIDTH-1:0] slot_araddr = {s03_axi_araddr, s02_axi_araddr, s01_axi_araddr, s00_axi_araddr};
wire [SLOTS*8-1:0]          slot_arlen = {s03_axi_arlen, s02_axi_arlen, s01_axi_arlen, s00_axi_arlen};
wire [SLOTS*3-1:0]          slot_arsize = {s03_axi_arsize, s02_axi_arsize, s01_axi_arsize, s00_axi_arsize};
wire [SLOTS*2-1:0]          slot_arburst = {s03_axi_arburst, s02_axi_arburst, s01_axi_arburst, s00_axi_arburst};
wire [SLOTS-1:0]            slot_arlock = {s03_axi_arlock, s02_axi_arlock, s01_axi_arlock, s00_axi_arlock};
wire [SLOTS*4-1:0]          slot_arcache = {s03_axi_arcache, s02_axi_arcache, s01_axi_arcache, s00_axi_arcache};
wire [SLOTS*3-1:0]          slot_arprot = {s03_axi_arprot, s02_axi_arprot, s01_axi_arprot, s00_axi_arprot};
wire [SLOTS-1:0]            slot_arvalid = {s03_axi_arvalid, s02_axi_arvalid, s01_axi_arvalid, s00_axi_arvalid};
wire [SLOTS-1:0]            slot_arready;
wire [SLOTS*S_ID_WIDTH-1:0] slot_rid;
wire [SLOTS*DATA_WIDTH-1:0] slot_rdata;
wire [SLOTS*2-1:0]          slot_rresp;
wire [SLOTS-1:0]            slot_rlast;
wire [SLOTS-1:0]            slot_rvalid;
wire [SLOTS-1:0]            slot_rready = {s03_axi_rready, s02_axi_rready, s01_axi_rready, s00_axi_rready};

assign {s03_axi_arready, s02_axi_arready, s01_axi_arready, s00_axi_arready} = slot_arready;
assign {s03_axi_rid, s02_axi_rid, s01_axi_rid, s00_axi_rid} = slot_rid;
assign {s03_axi_rdata, s02_axi_rdata, s01_axi_rdata, s00_axi_rdata} = slot_rdata;
assign {s03_axi_rresp, s02_axi_rresp, s01_axi_rresp, s00_axi_rresp} = slot_rresp;
assign {s03_axi_rlast, s02_axi_rlast, s01_axi_rlast, s00_axi_rlast} = slot_rlast;
assign {s03_axi_rvalid, s02_axi_rvalid, s01_axi_rvalid, s00_axi_rvalid} = slot_rvalid;

generate
    if (PORTS < SLOTS) begin : unconnected_slots
        assign slot_arready[SLOTS-1:PORTS] = {(SLOTS-PORTS){1'b0}};
        assign slot_rid[SLOTS*S_ID_WIDTH-1:PORTS*S_ID_WIDTH] = {((SLOTS-PORTS)*S_ID_WIDTH){1'b0}};
        assign slot_rdata[SLOTS*DATA_WIDTH-1:PORTS*DATA_WIDTH] = {((SLOTS-PORTS)*DATA_WIDTH){1'b0}};
        assign slot_rresp[SLOTS*2-1:PORTS*2] = {((SLOTS-PORTS)*2){1'b0}};
        assign slot_rlast[SLOTS-1:PORTS] = {(SLOTS-PORTS){1'b0}};
        assign slot_rvalid[SLOTS-1:PORTS] = {(SLOTS-PORTS){1'b0}};
        // Lint takes a signal whose name holds "unused" as left unread on purpose
        wire unused_inputs = &{1'b0,
            slot_arid[SLOTS*S_ID_WIDTH-1:PORTS*S_ID_WIDTH],
            slot_araddr[SLOTS*ADDR_WIDTH-1:PORTS*ADDR_WIDTH],
            slot_arlen[SLOTS*8-1:PORTS*8],
            slot_arsize[SLOTS*3-1:PORTS*3],
            slot_arburst[SLOTS*2-1:PORTS*2],
            slot_arlock[SLOTS-1:PORTS],
            slot_arcache[SLOTS*4-1:PORTS*4],
            slot_arprot[SLOTS*3-1:PORTS*3],
            slot_arvalid[SLOTS-1:PORTS],
            slot_rready[SLOTS-1:PORTS]
        };
    end
endgenerate

axi_read_arbiter #(
    .PORTS(PORTS),
    .DATA_WIDTH(DATA_WIDTH),
    .ADDR_WIDTH(ADDR_WIDTH),
    .S_ID_WIDTH(S_ID_WIDTH),
    .M_ID_WIDTH(M_ID_WIDTH)
) arbiter_inst (
    .clk(clk),
    .rst(rst),
    .s_axi_arid(slot_arid[PORTS*S_ID_WIDTH-1:0]),
    .s_axi_araddr(slot_araddr[PORTS*ADDR_WIDTH-1:0]),
    .s_axi_arlen(slot_arlen[PORTS*8-1:0]),
    .s_axi_arsize(slot_arsize[PORTS*3-1:0]),
    .s_axi_arburst(slot_arburst[PORTS*2-1:0]),
    .s_axi_arlock(slot_arlock[PORTS-1:0]),
    .s_axi_arcache(slot_arcache[PORTS*4-1:0]),
    .s_axi_arprot(slot_arprot[PORTS*3-1:0]),
    .s_axi_arvalid(slot_arvalid[PORTS-1:0]),
    .s_axi_arready(slot_arready[PORTS-1:0]),
    .s_axi_rid(slot_rid[PORTS*S_ID_WIDTH-1:0]),
    .s_axi_rdata(slot_rdata[PORTS*DATA_WIDTH-1:0]),
    .s_axi_rresp(slot_rresp[PORTS*2-1:0]),
    .s_axi_rlast(slot_rlast[PORTS-1:0]),
    .s_axi_rvalid(slot_rvalid[PORTS-1:0]),
    .s_axi_rready(slot_rready[PORTS-1:0]),
    .m_axi_arid(m_axi_arid),
    .m_axi_araddr(m_axi_araddr),
    .m_axi_arlen(m_axi_arlen),
    .m_axi_arsize(m_axi_arsize),
    .m_axi_arburst(m_axi_arburst),
    .m_axi_arlock(m_axi_arlock),
    .m_axi_arcache(m_axi_arcache),
    .m_axi_arprot(m_axi_arprot),
    .m_axi_arvalid(m_axi_arvalid),
    .m_axi_arready(m_axi_arready),
    .m_axi_rid(m_axi_rid),
    .m_axi_rdata(m_axi_rdata),
    .m_axi_rresp(m_axi_rresp),
    .m_axi_rlast(m_axi_rlast),
    .m_axi_rvalid(m_axi_rvalid),
    .m_axi_rready(m_axi_rready)
);

endmodule

`resetall
