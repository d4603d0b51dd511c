// Board core: the dpuv core reached over the byte-stream board link instead of a CPU bus
`resetall
`timescale 1ns / 1ps
`default_nettype none

// What a board (behind a UART) or a virtual board (behind a TCP socket) exposes: the link's
// byte streams, and the core's own stream ports.
module board_core #(
    // Width of the loopback stream's tdata in bits
    parameter DATA_WIDTH = 64,
    // Cycles without a byte, inside a link frame, after which the frame is dropped
    parameter LINK_TIMEOUT_CYCLES = 4096,
    // First 32 bits of the git commit, stamped by the build
    parameter [31:0] GIT_HASH = 32'd0,
    // 1 when the working tree had uncommitted changes at build time
    parameter GIT_DIRTY = 0
) (
    input  wire                    clk,
    input  wire                    rst,

    input  wire [7:0]              s_link_tdata,
    input  wire                    s_link_tvalid,
    output wire                    s_link_tready,
    output wire [7:0]              m_link_tdata,
    output wire                    m_link_tvalid,
    input  wire                    m_link_tready,

    input  wire [DATA_WIDTH-1:0]   s_axis_tdata,
    input  wire [DATA_WIDTH/8-1:0] s_axis_tkeep,
    input  wire                    s_axis_tvalid,
    output wire                    s_axis_tready,
    input  wire                    s_axis_tlast,
    input  wire                    s_axis_tuser,
    output wire [DATA_WIDTH-1:0]   m_axis_tdata,
    output wire [DATA_WIDTH/8-1:0] m_axis_tkeep,
    output wire                    m_axis_tvalid,
    input  wire                    m_axis_tready,
    output wire                    m_axis_tlast,
    output wire                    m_axis_tuser
);

wire [15:0] awaddr, araddr;
wire [2:0]  awprot, arprot;
wire        awvalid, awready, wvalid, wready, bvalid, bready, arvalid, arready, rvalid, rready;
wire [31:0] wdata, rdata;
wire [3:0]  wstrb;
wire [1:0]  bresp, rresp;

link_bridge #(
    .ADDR_WIDTH(16),
    .TIMEOUT_CYCLES(LINK_TIMEOUT_CYCLES)
) link_inst (
    .clk(clk), .rst(rst),
    .s_axis_tdata(s_link_tdata), .s_axis_tvalid(s_link_tvalid), .s_axis_tready(s_link_tready),
    .m_axis_tdata(m_link_tdata), .m_axis_tvalid(m_link_tvalid), .m_axis_tready(m_link_tready),
    .m_axil_awaddr(awaddr), .m_axil_awprot(awprot), .m_axil_awvalid(awvalid), .m_axil_awready(awready),
    .m_axil_wdata(wdata), .m_axil_wstrb(wstrb), .m_axil_wvalid(wvalid), .m_axil_wready(wready),
    .m_axil_bresp(bresp), .m_axil_bvalid(bvalid), .m_axil_bready(bready),
    .m_axil_araddr(araddr), .m_axil_arprot(arprot), .m_axil_arvalid(arvalid), .m_axil_arready(arready),
    .m_axil_rdata(rdata), .m_axil_rresp(rresp), .m_axil_rvalid(rvalid), .m_axil_rready(rready),
    .event_frame_done(), .event_bad_crc(), .event_bad_request(), .event_timeout()
);

dpuv_core #(
    .DATA_WIDTH(DATA_WIDTH),
    .GIT_HASH(GIT_HASH),
    .GIT_DIRTY(GIT_DIRTY),
    .SIMULATION(1)
) core_inst (
    .clk(clk), .rst(rst),
    .s_axil_awaddr(awaddr), .s_axil_awprot(awprot), .s_axil_awvalid(awvalid), .s_axil_awready(awready),
    .s_axil_wdata(wdata), .s_axil_wstrb(wstrb), .s_axil_wvalid(wvalid), .s_axil_wready(wready),
    .s_axil_bresp(bresp), .s_axil_bvalid(bvalid), .s_axil_bready(bready),
    .s_axil_araddr(araddr), .s_axil_arprot(arprot), .s_axil_arvalid(arvalid), .s_axil_arready(arready),
    .s_axil_rdata(rdata), .s_axil_rresp(rresp), .s_axil_rvalid(rvalid), .s_axil_rready(rready),
    .s_axis_tdata(s_axis_tdata), .s_axis_tkeep(s_axis_tkeep), .s_axis_tvalid(s_axis_tvalid),
    .s_axis_tready(s_axis_tready), .s_axis_tlast(s_axis_tlast), .s_axis_tuser(s_axis_tuser),
    .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep), .m_axis_tvalid(m_axis_tvalid),
    .m_axis_tready(m_axis_tready), .m_axis_tlast(m_axis_tlast), .m_axis_tuser(m_axis_tuser)
);

endmodule

`resetall
