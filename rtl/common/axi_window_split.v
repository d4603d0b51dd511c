// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// AXI4 window split: one master's bursts to one slave when they fall in an address window, to another when not
`resetall
`timescale 1ns / 1ps
`default_nettype none

// A burst goes where its first byte is: to m_window when that byte is in
// [WINDOW_BASE, WINDOW_BASE + WINDOW_BYTES), to m_rest otherwise. The window is aligned to its
// own size, at least 4 KiB, so no AXI burst (which never crosses 4 KiB) straddles its edge.
//
// Responses must come back in the order the master asked (AXI4 orders responses of one ID, and
// the master may reuse one ID for everything). Rather than track which slave owes which
// response, each direction sends all its bursts in flight to one slave at a time: a burst for the
// other slave waits until every burst before it is answered. A master that alternates targets
// burst by burst loses the overlap of one burst's answer with the next's address; one that stays
// in the window or out of it loses nothing. Write data follows its burst's address (it is held
// back until that address is taken) and a burst's data ends at wlast.
module axi_window_split #(
    // Width of the data bus in bits
    parameter DATA_WIDTH = 64,
    // Width of byte addresses
    parameter ADDR_WIDTH = 64,
    // Width of the IDs (passed through unchanged)
    parameter ID_WIDTH = 4,
    // The window: WINDOW_BYTES (a power of two, 4 KiB or more) from WINDOW_BASE (a multiple of it)
    parameter [ADDR_WIDTH-1:0] WINDOW_BASE = 0,
    parameter WINDOW_BYTES = 65536,
    // Bursts one direction may have in flight
    parameter MAX_IN_FLIGHT = 15
) (
    input  wire                    clk,
    input  wire                    rst,

    input  wire [ID_WIDTH-1:0]     s_axi_awid,
    input  wire [ADDR_WIDTH-1:0]   s_axi_awaddr,
    input  wire [7:0]              s_axi_awlen,
    input  wire [2:0]              s_axi_awsize,
    input  wire [1:0]              s_axi_awburst,
    input  wire                    s_axi_awlock,
    input  wire [3:0]              s_axi_awcache,
    input  wire [2:0]              s_axi_awprot,
    input  wire                    s_axi_awvalid,
    output wire                    s_axi_awready,
    input  wire [DATA_WIDTH-1:0]   s_axi_wdata,
    input  wire [DATA_WIDTH/8-1:0] s_axi_wstrb,
    input  wire                    s_axi_wlast,
    input  wire                    s_axi_wvalid,
    output wire                    s_axi_wready,
    output wire [ID_WIDTH-1:0]     s_axi_bid,
    output wire [1:0]              s_axi_bresp,
    output wire                    s_axi_bvalid,
    input  wire                    s_axi_bready,
    input  wire [ID_WIDTH-1:0]     s_axi_arid,
    input  wire [ADDR_WIDTH-1:0]   s_axi_araddr,
    input  wire [7:0]              s_axi_arlen,
    input  wire [2:0]              s_axi_arsize,
    input  wire [1:0]              s_axi_arburst,
    input  wire                    s_axi_arlock,
    input  wire [3:0]              s_axi_arcache,
    input  wire [2:0]              s_axi_arprot,
    input  wire                    s_axi_arvalid,
    output wire                    s_axi_arready,
    output wire [ID_WIDTH-1:0]     s_axi_rid,
    output wire [DATA_WIDTH-1:0]   s_axi_rdata,
    output wire [1:0]              s_axi_rresp,
    output wire                    s_axi_rlast,
    output wire                    s_axi_rvalid,
    input  wire                    s_axi_rready,

    // Bursts outside the window
    output wire [ID_WIDTH-1:0]     m_rest_axi_awid,
    output wire [ADDR_WIDTH-1:0]   m_rest_axi_awaddr,
    output wire [7:0]              m_rest_axi_awlen,
    output wire [2:0]              m_rest_axi_awsize,
    output wire [1:0]              m_rest_axi_awburst,
    output wire                    m_rest_axi_awlock,
    output wire [3:0]              m_rest_axi_awcache,
    output wire [2:0]              m_rest_axi_awprot,
    output wire                    m_rest_axi_awvalid,
    input  wire                    m_rest_axi_awready,
    output wire [DATA_WIDTH-1:0]   m_rest_axi_wdata,
    output wire [DATA_WIDTH/8-1:0] m_rest_axi_wstrb,
    output wire                    m_rest_axi_wlast,
    output wire                    m_rest_axi_wvalid,
    input  wire                    m_rest_axi_wready,
    input  wire [ID_WIDTH-1:0]     m_rest_axi_bid,
    input  wire [1:0]              m_rest_axi_bresp,
    input  wire                    m_rest_axi_bvalid,
    output wire                    m_rest_axi_bready,
    output wire [ID_WIDTH-1:0]     m_rest_axi_arid,
    output wire [ADDR_WIDTH-1:0]   m_rest_axi_araddr,
    output wire [7:0]              m_rest_axi_arlen,
    output wire [2:0]              m_rest_axi_arsize,
    output wire [1:0]              m_rest_axi_arburst,
    output wire                    m_rest_axi_arlock,
    output wire [3:0]              m_rest_axi_arcache,
    output wire [2:0]              m_rest_axi_arprot,
    output wire                    m_rest_axi_arvalid,
    input  wire                    m_rest_axi_arready,
    input  wire [ID_WIDTH-1:0]     m_rest_axi_rid,
    input  wire [DATA_WIDTH-1:0]   m_rest_axi_rdata,
    input  wire [1:0]              m_rest_axi_rresp,
    input  wire                    m_rest_axi_rlast,
    input  wire                    m_rest_axi_rvalid,
    output wire                    m_rest_axi_rready,

    // Bursts in the window
    output wire [ID_WIDTH-1:0]     m_window_axi_awid,
    output wire [ADDR_WIDTH-1:0]   m_window_axi_awaddr,
    output wire [7:0]              m_window_axi_awlen,
    output wire [2:0]              m_window_axi_awsize,
    output wire [1:0]              m_window_axi_awburst,
    output wire                    m_window_axi_awlock,
    output wire [3:0]              m_window_axi_awcache,
    output wire [2:0]              m_window_axi_awprot,
    output wire                    m_window_axi_awvalid,
    input  wire                    m_window_axi_awready,
    output wire [DATA_WIDTH-1:0]   m_window_axi_wdata,
    output wire [DATA_WIDTH/8-1:0] m_window_axi_wstrb,
    output wire                    m_window_axi_wlast,
    output wire                    m_window_axi_wvalid,
    input  wire                    m_window_axi_wready,
    input  wire [ID_WIDTH-1:0]     m_window_axi_bid,
    input  wire [1:0]              m_window_axi_bresp,
    input  wire                    m_window_axi_bvalid,
    output wire                    m_window_axi_bready,
    output wire [ID_WIDTH-1:0]     m_window_axi_arid,
    output wire [ADDR_WIDTH-1:0]   m_window_axi_araddr,
    output wire [7:0]              m_window_axi_arlen,
    output wire [2:0]              m_window_axi_arsize,
    output wire [1:0]              m_window_axi_arburst,
    output wire                    m_window_axi_arlock,
    output wire [3:0]              m_window_axi_arcache,
    output wire [2:0]              m_window_axi_arprot,
    output wire                    m_window_axi_arvalid,
    input  wire                    m_window_axi_arready,
    input  wire [ID_WIDTH-1:0]     m_window_axi_rid,
    input  wire [DATA_WIDTH-1:0]   m_window_axi_rdata,
    input  wire [1:0]              m_window_axi_rresp,
    input  wire                    m_window_axi_rlast,
    input  wire                    m_window_axi_rvalid,
    output wire                    m_window_axi_rready
);

localparam [31:0] WINDOW_BYTES_32 = WINDOW_BYTES;
localparam [ADDR_WIDTH-1:0] WINDOW_SIZE = {{(ADDR_WIDTH-32){1'b0}}, WINDOW_BYTES_32};
localparam [ADDR_WIDTH-1:0] WINDOW_MASK = ~(WINDOW_SIZE - 1'b1);

initial begin
    if (WINDOW_BYTES < 4096 || (WINDOW_BYTES & (WINDOW_BYTES - 1)) != 0) begin
        $error("Error: WINDOW_BYTES must be a power of two of 4 KiB or more (instance %m)");
        $finish;
    end
    if (MAX_IN_FLIGHT < 1 || MAX_IN_FLIGHT > 255) begin
        $error("Error: MAX_IN_FLIGHT must be 1 to 255 (instance %m)");
        $finish;
    end
    if ((WINDOW_BASE & ~WINDOW_MASK) != 0) begin
        $error("Error: WINDOW_BASE must be a multiple of WINDOW_BYTES (instance %m)");
        $finish;
    end
end

function in_window(input [ADDR_WIDTH-1:0] address);
    in_window = (address & WINDOW_MASK) == WINDOW_BASE;
endfunction

// ---- Writes: a burst is in flight from its address to its response ----

wire       aw_taken, write_answered, write_slave;
wire [1:0] awvalid;
wire [1:0] awready = {m_window_axi_awready, m_rest_axi_awready};
// Bursts whose address was taken and whose last data beat was not: write data belongs to them
reg  [7:0] write_bursts_awaiting_data;

axi_window_split_steer #(
    .MAX_IN_FLIGHT(MAX_IN_FLIGHT)
) write_steer_inst (
    .clk(clk), .rst(rst),
    .request_valid(s_axi_awvalid), .request_slave(in_window(s_axi_awaddr)), .request_ready(s_axi_awready),
    .slave_valid(awvalid), .slave_ready(awready),
    .answered(write_answered), .current_slave(write_slave)
);
assign aw_taken = s_axi_awvalid && s_axi_awready;

assign {m_rest_axi_awid, m_rest_axi_awaddr, m_rest_axi_awlen, m_rest_axi_awsize, m_rest_axi_awburst,
        m_rest_axi_awlock, m_rest_axi_awcache, m_rest_axi_awprot} =
       {s_axi_awid, s_axi_awaddr, s_axi_awlen, s_axi_awsize, s_axi_awburst, s_axi_awlock, s_axi_awcache, s_axi_awprot};
assign {m_window_axi_awid, m_window_axi_awaddr, m_window_axi_awlen, m_window_axi_awsize, m_window_axi_awburst,
        m_window_axi_awlock, m_window_axi_awcache, m_window_axi_awprot} =
       {s_axi_awid, s_axi_awaddr, s_axi_awlen, s_axi_awsize, s_axi_awburst, s_axi_awlock, s_axi_awcache, s_axi_awprot};
assign {m_window_axi_awvalid, m_rest_axi_awvalid} = awvalid;

wire write_data_open = write_bursts_awaiting_data != 8'd0;
assign {m_rest_axi_wdata, m_rest_axi_wstrb, m_rest_axi_wlast} = {s_axi_wdata, s_axi_wstrb, s_axi_wlast};
assign {m_window_axi_wdata, m_window_axi_wstrb, m_window_axi_wlast} = {s_axi_wdata, s_axi_wstrb, s_axi_wlast};
assign m_rest_axi_wvalid = s_axi_wvalid && write_data_open && !write_slave;
assign m_window_axi_wvalid = s_axi_wvalid && write_data_open && write_slave;
assign s_axi_wready = write_data_open && (write_slave ? m_window_axi_wready : m_rest_axi_wready);
wire last_data_taken = s_axi_wvalid && s_axi_wready && s_axi_wlast;

always @(posedge clk) begin
    write_bursts_awaiting_data <= write_bursts_awaiting_data + {7'd0, aw_taken} - {7'd0, last_data_taken};
    if (rst) begin
        write_bursts_awaiting_data <= 8'd0;
    end
end

assign s_axi_bid = write_slave ? m_window_axi_bid : m_rest_axi_bid;
assign s_axi_bresp = write_slave ? m_window_axi_bresp : m_rest_axi_bresp;
assign s_axi_bvalid = write_slave ? m_window_axi_bvalid : m_rest_axi_bvalid;
assign m_rest_axi_bready = s_axi_bready && !write_slave;
assign m_window_axi_bready = s_axi_bready && write_slave;
assign write_answered = s_axi_bvalid && s_axi_bready;

// ---- Reads: a burst is in flight from its address to its last beat ----

wire       read_slave, read_answered;
wire [1:0] arvalid;
wire [1:0] arready = {m_window_axi_arready, m_rest_axi_arready};

axi_window_split_steer #(
    .MAX_IN_FLIGHT(MAX_IN_FLIGHT)
) read_steer_inst (
    .clk(clk), .rst(rst),
    .request_valid(s_axi_arvalid), .request_slave(in_window(s_axi_araddr)), .request_ready(s_axi_arready),
    .slave_valid(arvalid), .slave_ready(arready),
    .answered(read_answered), .current_slave(read_slave)
);

assign {m_rest_axi_arid, m_rest_axi_araddr, m_rest_axi_arlen, m_rest_axi_arsize, m_rest_axi_arburst,
        m_rest_axi_arlock, m_rest_axi_arcache, m_rest_axi_arprot} =
       {s_axi_arid, s_axi_araddr, s_axi_arlen, s_axi_arsize, s_axi_arburst, s_axi_arlock, s_axi_arcache, s_axi_arprot};
assign {m_window_axi_arid, m_window_axi_araddr, m_window_axi_arlen, m_window_axi_arsize, m_window_axi_arburst,
        m_window_axi_arlock, m_window_axi_arcache, m_window_axi_arprot} =
       {s_axi_arid, s_axi_araddr, s_axi_arlen, s_axi_arsize, s_axi_arburst, s_axi_arlock, s_axi_arcache, s_axi_arprot};
assign {m_window_axi_arvalid, m_rest_axi_arvalid} = arvalid;

assign s_axi_rid = read_slave ? m_window_axi_rid : m_rest_axi_rid;
assign s_axi_rdata = read_slave ? m_window_axi_rdata : m_rest_axi_rdata;
assign s_axi_rresp = read_slave ? m_window_axi_rresp : m_rest_axi_rresp;
assign s_axi_rlast = read_slave ? m_window_axi_rlast : m_rest_axi_rlast;
assign s_axi_rvalid = read_slave ? m_window_axi_rvalid : m_rest_axi_rvalid;
assign m_rest_axi_rready = s_axi_rready && !read_slave;
assign m_window_axi_rready = s_axi_rready && read_slave;
assign read_answered = s_axi_rvalid && s_axi_rready && s_axi_rlast;

endmodule

`resetall
