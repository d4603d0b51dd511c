// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// NVMe controller top: the UltraScale+ PCIe hard-IP user interface on one side, BAR0 registers behind it
`resetall
`timescale 1ns / 1ps
`default_nettype none

// Port names and widths are the hard IP's as cocotbext-pcie's UltraScalePlusPcieDevice binds
// them (Xilinx PG213), seen from the user logic: everything the IP drives is an input here,
// including the user clock and reset, so a simulator never has to honour values written onto
// outputs. RQ/CC tready are one bit (the IP's [3:0] carry one value).
// BAR0 (NVMe registers and doorbells at 0x0000, the MSI-X table at 0x2000 and its pending bits at
// 0x3000, the counters at 0x4000) through the completer path; the queue engine fetches entries and posts completions
// through the requester path; NVM commands move data between host pages and the namespace's AXI4
// backend; each CQ raises its MSI-X vector.
module nvme_controller #(
    // Width of the PCIe streams: 512 (Gen3 x16) or 256
    parameter DATA_WIDTH = 512,
    // Queue pairs, the admin one included (2 to 65: 64 I/O queue pairs at most)
    parameter QUEUES = 17,
    // Largest I/O queue, in entries (CAP.MQES + 1)
    parameter MAX_QUEUE_ENTRIES = 1024,
    // Cycles from CC.EN (or CC.SHN) changing to CSTS following
    parameter READY_DELAY = 16,
    // Namespace 1: logical blocks and block size 2^LBA_SHIFT bytes (512 B to 4 KiB)
    parameter [63:0] NAMESPACE_BLOCKS = 64'd2048,
    parameter [7:0] LBA_SHIFT = 8'd9,
    // Cycles a host read waits for its next completion before it fails (PCIe Completion Timeout,
    // whose default range is 50 us to 50 ms: 16384 cycles are 65.5 us at 250 MHz)
    parameter COMPLETION_TIMEOUT = 16384,
    // Cycles of the Interrupt Coalescing time unit, 100 us (at 250 MHz)
    parameter INTERRUPT_TIME_UNIT_CYCLES = 25000,
    // The composite temperature the SMART log reports, in kelvin (40 C: the board has no sensor)
    parameter [15:0] TEMPERATURE_KELVIN = 16'd313
) (
    input  wire                      user_clk,
    input  wire                      user_reset,
    input  wire                      user_lnk_up,

    output wire [DATA_WIDTH-1:0]     s_axis_rq_tdata,
    output wire [DATA_WIDTH/32-1:0]  s_axis_rq_tkeep,
    output wire                      s_axis_rq_tlast,
    output wire [RQ_USER_WIDTH-1:0]  s_axis_rq_tuser,
    output wire                      s_axis_rq_tvalid,
    input  wire                      s_axis_rq_tready,

    input  wire [DATA_WIDTH-1:0]     m_axis_rc_tdata,
    input  wire [DATA_WIDTH/32-1:0]  m_axis_rc_tkeep,
    input  wire                      m_axis_rc_tlast,
    input  wire [RC_USER_WIDTH-1:0]  m_axis_rc_tuser,
    input  wire                      m_axis_rc_tvalid,
    output wire                      m_axis_rc_tready,

    input  wire [DATA_WIDTH-1:0]     m_axis_cq_tdata,
    input  wire [DATA_WIDTH/32-1:0]  m_axis_cq_tkeep,
    input  wire                      m_axis_cq_tlast,
    input  wire [CQ_USER_WIDTH-1:0]  m_axis_cq_tuser,
    input  wire                      m_axis_cq_tvalid,
    output wire                      m_axis_cq_tready,

    output wire [DATA_WIDTH-1:0]     s_axis_cc_tdata,
    output wire [DATA_WIDTH/32-1:0]  s_axis_cc_tkeep,
    output wire                      s_axis_cc_tlast,
    output wire [CC_USER_WIDTH-1:0]  s_axis_cc_tuser,
    output wire                      s_axis_cc_tvalid,
    input  wire                      s_axis_cc_tready,

    input  wire [2:0]                cfg_max_payload,
    input  wire [2:0]                cfg_max_read_req,
    input  wire [15:0]               cfg_function_status,

    input  wire [3:0]                cfg_interrupt_msix_enable,
    input  wire [3:0]                cfg_interrupt_msix_mask,
    output wire [63:0]               cfg_interrupt_msix_address,
    output wire [31:0]               cfg_interrupt_msix_data,
    output wire                      cfg_interrupt_msix_int,
    input  wire                      cfg_interrupt_msix_sent,
    input  wire                      cfg_interrupt_msix_fail,
    output wire [7:0]                cfg_interrupt_msi_function_number,

    // The namespace's backend: an AXI4 memory holding NAMESPACE_BLOCKS blocks from address 0
    output wire [3:0]                m_axi_awid,
    output wire [63:0]               m_axi_awaddr,
    output wire [7:0]                m_axi_awlen,
    output wire [2:0]                m_axi_awsize,
    output wire [1:0]                m_axi_awburst,
    output wire                      m_axi_awlock,
    output wire [3:0]                m_axi_awcache,
    output wire [2:0]                m_axi_awprot,
    output wire                      m_axi_awvalid,
    input  wire                      m_axi_awready,
    output wire [DATA_WIDTH-1:0]     m_axi_wdata,
    output wire [DATA_WIDTH/8-1:0]   m_axi_wstrb,
    output wire                      m_axi_wlast,
    output wire                      m_axi_wvalid,
    input  wire                      m_axi_wready,
    input  wire [3:0]                m_axi_bid,
    input  wire [1:0]                m_axi_bresp,
    input  wire                      m_axi_bvalid,
    output wire                      m_axi_bready,
    output wire [3:0]                m_axi_arid,
    output wire [63:0]               m_axi_araddr,
    output wire [7:0]                m_axi_arlen,
    output wire [2:0]                m_axi_arsize,
    output wire [1:0]                m_axi_arburst,
    output wire                      m_axi_arlock,
    output wire [3:0]                m_axi_arcache,
    output wire [2:0]                m_axi_arprot,
    output wire                      m_axi_arvalid,
    input  wire                      m_axi_arready,
    input  wire [3:0]                m_axi_rid,
    input  wire [DATA_WIDTH-1:0]     m_axi_rdata,
    input  wire [1:0]                m_axi_rresp,
    input  wire                      m_axi_rlast,
    input  wire                      m_axi_rvalid,
    output wire                      m_axi_rready
);

initial begin
    if (DATA_WIDTH != 256 && DATA_WIDTH != 512) begin
        $error("Error: DATA_WIDTH must be 256 or 512 (instance %m)");
        $finish;
    end
    if (QUEUES < 2 || QUEUES > 65) begin
        $error("Error: QUEUES must be 2 to 65 (instance %m)");
        $finish;
    end
    if (NAMESPACE_BLOCKS == 64'd0 || LBA_SHIFT < 8'd9 || LBA_SHIFT > 8'd12) begin
        $error("Error: NAMESPACE_BLOCKS must be 1 or more and LBA_SHIFT 9 to 12 (instance %m)");
        $finish;
    end
    if (COMPLETION_TIMEOUT < 1 || INTERRUPT_TIME_UNIT_CYCLES < 2) begin
        $error("Error: COMPLETION_TIMEOUT must be 1 or more and INTERRUPT_TIME_UNIT_CYCLES 2 or more (instance %m)");
        $finish;
    end
end

localparam RQ_USER_WIDTH = DATA_WIDTH == 512 ? 137 : 62;
localparam RC_USER_WIDTH = DATA_WIDTH == 512 ? 161 : 75;
localparam CQ_USER_WIDTH = DATA_WIDTH == 512 ? 183 : 88;
localparam CC_USER_WIDTH = DATA_WIDTH == 512 ? 81 : 33;
// BAR0: 32 KiB in 8 KiB windows: NVMe registers, MSI-X, counters (the fourth answers an error)
localparam ADDR_WIDTH = 15;
localparam WINDOWS = 3;
localparam WINDOW_ADDR_WIDTH = 13;
localparam VECTORS = 32;

wire clk = user_clk;
wire rst = user_reset;

wire         enabled, stopping, engine_busy, doorbell_valid, doorbell_is_cq_head, invalid_doorbell;
wire [11:0]  admin_sq_size, admin_cq_size;
wire [63:0]  admin_sq_base, admin_cq_base;
wire [6:0]   doorbell_queue;
wire [15:0]  doorbell_value;

assign cfg_interrupt_msi_function_number = 8'd0;

// ---- BAR0: completer requests to the registers ----

wire [ADDR_WIDTH-1:0] axil_awaddr, axil_araddr;
wire [31:0] axil_wdata, axil_rdata;
wire [3:0]  axil_wstrb;
wire [1:0]  axil_bresp, axil_rresp;
wire        axil_awvalid, axil_awready, axil_wvalid, axil_wready, axil_bvalid, axil_bready,
            axil_arvalid, axil_arready, axil_rvalid, axil_rready;

pcie_us_cq_axil #(
    .DATA_WIDTH(DATA_WIDTH),
    .ADDR_WIDTH(ADDR_WIDTH)
) completer_inst (
    .clk(clk), .rst(rst),
    .s_axis_cq_tdata(m_axis_cq_tdata), .s_axis_cq_tkeep(m_axis_cq_tkeep), .s_axis_cq_tvalid(m_axis_cq_tvalid),
    .s_axis_cq_tready(m_axis_cq_tready), .s_axis_cq_tlast(m_axis_cq_tlast), .s_axis_cq_tuser(m_axis_cq_tuser),
    .m_axis_cc_tdata(s_axis_cc_tdata), .m_axis_cc_tkeep(s_axis_cc_tkeep), .m_axis_cc_tvalid(s_axis_cc_tvalid),
    .m_axis_cc_tready(s_axis_cc_tready), .m_axis_cc_tlast(s_axis_cc_tlast), .m_axis_cc_tuser(s_axis_cc_tuser),
    .m_axil_awaddr(axil_awaddr), .m_axil_awprot(), .m_axil_awvalid(axil_awvalid), .m_axil_awready(axil_awready),
    .m_axil_wdata(axil_wdata), .m_axil_wstrb(axil_wstrb), .m_axil_wvalid(axil_wvalid), .m_axil_wready(axil_wready),
    .m_axil_bresp(axil_bresp), .m_axil_bvalid(axil_bvalid), .m_axil_bready(axil_bready),
    .m_axil_araddr(axil_araddr), .m_axil_arprot(), .m_axil_arvalid(axil_arvalid), .m_axil_arready(axil_arready),
    .m_axil_rdata(axil_rdata), .m_axil_rresp(axil_rresp), .m_axil_rvalid(axil_rvalid), .m_axil_rready(axil_rready),
    .event_unsupported()
);

wire [WINDOWS*WINDOW_ADDR_WIDTH-1:0] window_awaddr, window_araddr;
wire [WINDOWS*32-1:0] window_wdata, window_rdata;
wire [WINDOWS*4-1:0]  window_wstrb;
wire [WINDOWS*2-1:0]  window_bresp, window_rresp;
wire [WINDOWS-1:0]    window_awvalid, window_awready, window_wvalid, window_wready, window_bvalid, window_bready,
            window_arvalid, window_arready, window_rvalid, window_rready;

axil_decoder #(
    .M_COUNT(WINDOWS),
    .ADDR_WIDTH(ADDR_WIDTH),
    .WINDOW_ADDR_WIDTH(WINDOW_ADDR_WIDTH)
) bar_decoder_inst (
    .clk(clk), .rst(rst),
    .s_axil_awaddr(axil_awaddr), .s_axil_awprot(3'b000), .s_axil_awvalid(axil_awvalid), .s_axil_awready(axil_awready),
    .s_axil_wdata(axil_wdata), .s_axil_wstrb(axil_wstrb), .s_axil_wvalid(axil_wvalid), .s_axil_wready(axil_wready),
    .s_axil_bresp(axil_bresp), .s_axil_bvalid(axil_bvalid), .s_axil_bready(axil_bready),
    .s_axil_araddr(axil_araddr), .s_axil_arprot(3'b000), .s_axil_arvalid(axil_arvalid), .s_axil_arready(axil_arready),
    .s_axil_rdata(axil_rdata), .s_axil_rresp(axil_rresp), .s_axil_rvalid(axil_rvalid), .s_axil_rready(axil_rready),
    .m_axil_awaddr(window_awaddr), .m_axil_awprot(), .m_axil_awvalid(window_awvalid), .m_axil_awready(window_awready),
    .m_axil_wdata(window_wdata), .m_axil_wstrb(window_wstrb), .m_axil_wvalid(window_wvalid),
    .m_axil_wready(window_wready), .m_axil_bresp(window_bresp), .m_axil_bvalid(window_bvalid),
    .m_axil_bready(window_bready), .m_axil_araddr(window_araddr), .m_axil_arprot(), .m_axil_arvalid(window_arvalid),
    .m_axil_arready(window_arready), .m_axil_rdata(window_rdata), .m_axil_rresp(window_rresp),
    .m_axil_rvalid(window_rvalid), .m_axil_rready(window_rready)
);

wire interrupt_request, interrupt_admin, coalesced_request;
wire [15:0] interrupt_coalescing_setting;
wire [VECTORS-1:0] vector_coalescing_disabled;
wire [4:0]  coalesced_vector;

// Completion interrupts of I/O CQs wait here as the host's Interrupt Coalescing setting says
nvme_interrupt_coalescing #(
    .VECTORS(VECTORS),
    .TIME_UNIT_CYCLES(INTERRUPT_TIME_UNIT_CYCLES)
) interrupt_coalescing_inst (
    .clk(clk), .rst(rst || !enabled),
    .setting(interrupt_coalescing_setting),
    .request_valid(interrupt_request), .request_vector(interrupt_vector), .request_admin(interrupt_admin),
    .vector_not_coalesced(vector_coalescing_disabled),
    .interrupt_valid(coalesced_request), .interrupt_vector(coalesced_vector)
);

pcie_msix #(
    .VECTORS(VECTORS),
    .ADDR_WIDTH(WINDOW_ADDR_WIDTH)
) msix_inst (
    .clk(clk), .rst(rst),
    .s_axil_awaddr(window_awaddr[WINDOW_ADDR_WIDTH +: WINDOW_ADDR_WIDTH]), .s_axil_awvalid(window_awvalid[1]),
    .s_axil_awready(window_awready[1]), .s_axil_wdata(window_wdata[32 +: 32]), .s_axil_wstrb(window_wstrb[4 +: 4]),
    .s_axil_wvalid(window_wvalid[1]), .s_axil_wready(window_wready[1]), .s_axil_bresp(window_bresp[2 +: 2]),
    .s_axil_bvalid(window_bvalid[1]), .s_axil_bready(window_bready[1]),
    .s_axil_araddr(window_araddr[WINDOW_ADDR_WIDTH +: WINDOW_ADDR_WIDTH]), .s_axil_arvalid(window_arvalid[1]),
    .s_axil_arready(window_arready[1]), .s_axil_rdata(window_rdata[32 +: 32]), .s_axil_rresp(window_rresp[2 +: 2]),
    .s_axil_rvalid(window_rvalid[1]), .s_axil_rready(window_rready[1]),
    .request_valid(coalesced_request), .request_vector(coalesced_vector),
    .msix_enable(cfg_interrupt_msix_enable[0]), .msix_function_mask(cfg_interrupt_msix_mask[0]),
    .msix_address(cfg_interrupt_msix_address), .msix_data(cfg_interrupt_msix_data),
    .msix_int(cfg_interrupt_msix_int), .msix_sent(cfg_interrupt_msix_sent), .msix_fail(cfg_interrupt_msix_fail)
);

nvme_registers #(
    .QUEUES(QUEUES),
    .MAX_QUEUE_ENTRIES(MAX_QUEUE_ENTRIES),
    .READY_DELAY(READY_DELAY),
    .ADDR_WIDTH(WINDOW_ADDR_WIDTH)
) registers_inst (
    .clk(clk), .rst(rst),
    .s_axil_awaddr(window_awaddr[0 +: WINDOW_ADDR_WIDTH]), .s_axil_awvalid(window_awvalid[0]),
    .s_axil_awready(window_awready[0]), .s_axil_wdata(window_wdata[0 +: 32]), .s_axil_wstrb(window_wstrb[0 +: 4]),
    .s_axil_wvalid(window_wvalid[0]), .s_axil_wready(window_wready[0]), .s_axil_bresp(window_bresp[0 +: 2]),
    .s_axil_bvalid(window_bvalid[0]), .s_axil_bready(window_bready[0]),
    .s_axil_araddr(window_araddr[0 +: WINDOW_ADDR_WIDTH]), .s_axil_arvalid(window_arvalid[0]),
    .s_axil_arready(window_arready[0]), .s_axil_rdata(window_rdata[0 +: 32]), .s_axil_rresp(window_rresp[0 +: 2]),
    .s_axil_rvalid(window_rvalid[0]), .s_axil_rready(window_rready[0]),
    .enabled(enabled), .stopping(stopping), .engine_busy(engine_busy), .admin_sq_size(admin_sq_size),
    .admin_cq_size(admin_cq_size), .admin_sq_base(admin_sq_base),
    .admin_cq_base(admin_cq_base), .interrupt_mask(),
    .doorbell_valid(doorbell_valid), .doorbell_queue(doorbell_queue), .doorbell_is_cq_head(doorbell_is_cq_head),
    .doorbell_value(doorbell_value), .invalid_doorbell(invalid_doorbell)
);

// ---- Admin queue, over the requester path ----

wire         write_valid, write_ready, write_done, read_valid, read_ready, read_done, read_error;
wire [63:0]  write_address, read_address;
wire [4:0]   write_dwords;
wire [6:0]   read_dwords;
wire [511:0] write_data;
wire [2047:0] read_data;

wire         bulk_valid, bulk_ready, bulk_done;
wire         io_start, io_done, io_active, io_released, io_drain_done;
wire [7:0]   io_drain_status;
wire         io_drain_free;
wire [63:0]  stream_read_done_context;
wire         data_event, data_to_host, data_last_event, drain_data_last_event, completion_drained;
wire [12:0]  data_bytes;
wire [7:0]   io_opcode, io_status_code;
wire [31:0]  io_nsid;
wire [63:0]  io_slba, io_prp1, io_prp2;
wire [15:0]  io_nlb;
wire [64:0]  io_last_lba;
wire [4:0]   interrupt_vector;
wire         engine_write_valid, engine_write_ready, engine_read_valid, engine_read_ready;
wire [63:0]  engine_write_address, engine_read_address;
wire [4:0]   engine_write_dwords;
wire [6:0]   engine_read_dwords;
wire [511:0] engine_write_data;
wire         io_read_valid, io_stream_valid, stream_ready, stream_done;
wire [63:0]  io_read_address, io_stream_address;
wire [4:0]   io_read_dwords;
wire [10:0]  io_stream_dwords;
// A Write's host reads and the pieces their completions bring
wire         io_stream_read_valid, stream_read_ready, stream_read_done, stream_read_error;
wire [63:0]  io_stream_read_address, io_stream_read_context, piece_context;
wire [10:0]  io_stream_read_dwords;
wire         piece_valid, piece_ready, ns_write_from_host;
wire [11:0]  piece_offset;
wire [12:0]  piece_bytes;
wire [DATA_WIDTH-1:0]   piece_tdata;
wire [DATA_WIDTH/8-1:0] piece_tkeep;
wire         piece_tvalid, piece_tready, piece_tlast;

// The requester's small reads serve the queue engine's entry fetches (a prefetch among them while
// an NVM command runs) and the command's PRP list reads, the command's first; each answer goes
// to whoever asked. Completion entries (the only small writes) go whenever the requester takes
// them, so one can go out while the next command starts; a Read's data goes as stream writes, a
// Write's as stream reads
wire io_read_wanted = io_active && io_read_valid;
reg  small_read_for_io;
always @(posedge clk) begin
    if (read_valid && read_ready) begin
        small_read_for_io <= io_read_wanted;
    end
    if (rst) begin
        small_read_for_io <= 1'b0;
    end
end
assign read_valid = io_read_wanted || engine_read_valid;
assign read_address = io_read_wanted ? io_read_address : engine_read_address;
assign read_dwords = io_read_wanted ? {2'd0, io_read_dwords} : engine_read_dwords;
assign write_valid = engine_write_valid;
assign write_address = engine_write_address;
assign write_dwords = engine_write_dwords;
assign write_data = engine_write_data;
assign engine_read_ready = read_ready && !io_read_wanted;
assign engine_write_ready = write_ready;

// ---- NVM commands: host pages to and from the namespace ----

// The IP releases user_reset only after some clocks; until the first reset the backend's
// handshake outputs are held low (an FPGA register's initial value), so they are never unknown.
reg  reset_seen = 1'b0;
always @(posedge clk) begin
    if (rst) begin
        reset_seen <= 1'b1;
    end
end
wire namespace_awvalid, namespace_wvalid, namespace_bready, namespace_arvalid, namespace_rready;
assign m_axi_awvalid = namespace_awvalid && reset_seen;
assign m_axi_wvalid = namespace_wvalid && reset_seen;
assign m_axi_bready = namespace_bready && reset_seen;
assign m_axi_arvalid = namespace_arvalid && reset_seen;
assign m_axi_rready = namespace_rready && reset_seen;

wire [63:0] ns_read_cmd_addr, ns_write_cmd_addr;
wire [15:0] ns_read_cmd_len, ns_write_cmd_len;
wire        ns_read_cmd_valid, ns_read_cmd_ready, ns_write_cmd_valid, ns_write_cmd_ready;
wire [DATA_WIDTH-1:0]   ns_read_tdata, ns_write_tdata;
wire [DATA_WIDTH/8-1:0] ns_write_tkeep, ns_read_tkeep;
wire        ns_read_tvalid, ns_read_tready, ns_read_tlast, ns_write_tvalid, ns_write_tready, ns_write_tlast,
            ns_write_status_valid, ns_write_status_error;

nvme_io_command #(
    .DATA_WIDTH(DATA_WIDTH),
    .NAMESPACE_BLOCKS(NAMESPACE_BLOCKS),
    .LBA_SHIFT(LBA_SHIFT)
) io_command_inst (
    .clk(clk), .rst(rst),
    .start(io_start), .opcode(io_opcode), .nsid(io_nsid), .slba(io_slba), .nlb(io_nlb), .last_lba(io_last_lba),
    .prp1(io_prp1), .prp2(io_prp2), .done(io_done), .status_code(io_status_code), .released(io_released),
    .drain_done(io_drain_done), .drain_status(io_drain_status), .release_allowed(io_drain_free),
    .host_read_valid(io_read_valid), .host_read_ready(read_ready && io_active), .host_read_address(io_read_address),
    .host_read_dwords(io_read_dwords), .host_read_done(read_done && small_read_for_io), .host_read_data(read_data[511:0]),
    .host_read_error(read_error),
    .host_stream_valid(io_stream_valid), .host_stream_ready(stream_ready), .host_stream_address(io_stream_address),
    .host_stream_dwords(io_stream_dwords), .host_stream_done(stream_done), .max_payload(cfg_max_payload),
    .host_stream_read_valid(io_stream_read_valid), .host_stream_read_ready(stream_read_ready),
    .host_stream_read_address(io_stream_read_address), .host_stream_read_dwords(io_stream_read_dwords),
    .host_stream_read_context(io_stream_read_context),
    .host_stream_read_done(stream_read_done), .host_stream_read_error(stream_read_error),
    .host_stream_read_done_context(stream_read_done_context),
    .host_piece_valid(piece_valid), .host_piece_ready(piece_ready), .host_piece_offset(piece_offset),
    .host_piece_bytes(piece_bytes), .host_piece_context(piece_context), .max_read_request(cfg_max_read_req), .ns_write_from_host(ns_write_from_host),
    .ns_read_cmd_addr(ns_read_cmd_addr), .ns_read_cmd_len(ns_read_cmd_len), .ns_read_cmd_valid(ns_read_cmd_valid),
    .ns_read_cmd_ready(ns_read_cmd_ready),
    .ns_write_cmd_addr(ns_write_cmd_addr), .ns_write_cmd_len(ns_write_cmd_len),
    .ns_write_cmd_valid(ns_write_cmd_valid), .ns_write_cmd_ready(ns_write_cmd_ready),
    .ns_write_tdata(ns_write_tdata), .ns_write_tkeep(ns_write_tkeep), .ns_write_tvalid(ns_write_tvalid),
    .ns_write_tready(ns_write_tready), .ns_write_tlast(ns_write_tlast),
    .ns_write_status_valid(ns_write_status_valid), .ns_write_status_error(ns_write_status_error),
    .data_event(data_event), .data_to_host(data_to_host), .data_bytes(data_bytes), .data_last_event(data_last_event),
    .drain_data_last_event(drain_data_last_event)
);

axi_dma_read #(
    .DATA_WIDTH(DATA_WIDTH), .ADDR_WIDTH(64), .LEN_WIDTH(16), .ID_WIDTH(4)
) namespace_read_inst (
    .clk(clk), .rst(rst),
    .s_cmd_addr(ns_read_cmd_addr), .s_cmd_len(ns_read_cmd_len), .s_cmd_valid(ns_read_cmd_valid),
    .s_cmd_ready(ns_read_cmd_ready),
    .m_axi_arid(m_axi_arid), .m_axi_araddr(m_axi_araddr), .m_axi_arlen(m_axi_arlen), .m_axi_arsize(m_axi_arsize),
    .m_axi_arburst(m_axi_arburst), .m_axi_arlock(m_axi_arlock), .m_axi_arcache(m_axi_arcache),
    .m_axi_arprot(m_axi_arprot), .m_axi_arvalid(namespace_arvalid), .m_axi_arready(m_axi_arready),
    .m_axi_rid(m_axi_rid), .m_axi_rdata(m_axi_rdata), .m_axi_rresp(m_axi_rresp), .m_axi_rlast(m_axi_rlast),
    .m_axi_rvalid(m_axi_rvalid), .m_axi_rready(namespace_rready),
    .m_axis_tdata(ns_read_tdata), .m_axis_tkeep(ns_read_tkeep), .m_axis_tvalid(ns_read_tvalid),
    .m_axis_tready(ns_read_tready), .m_axis_tlast(ns_read_tlast), .m_axis_tuser()
);

// The namespace writer takes a Write's pieces from the completions, or Write Zeroes'. The pieces
// pass a FIFO: the writer starts each piece's data only once its burst address has gone out,
// and without the FIFO the completion stream would stall for that at every piece.
wire namespace_write_tready;
wire [DATA_WIDTH-1:0]   queued_piece_tdata;
wire [DATA_WIDTH/8-1:0] queued_piece_tkeep;
wire queued_piece_tvalid, queued_piece_tready, queued_piece_tlast;
assign ns_write_tready = namespace_write_tready && !ns_write_from_host;
assign queued_piece_tready = namespace_write_tready && ns_write_from_host;

axis_fifo #(
    .DEPTH(32),
    .DATA_WIDTH(DATA_WIDTH)
) piece_fifo_inst (
    .clk(clk), .rst(rst),
    .s_axis_tdata(piece_tdata), .s_axis_tkeep(piece_tkeep), .s_axis_tvalid(piece_tvalid),
    .s_axis_tready(piece_tready), .s_axis_tlast(piece_tlast), .s_axis_tuser(1'b0),
    .m_axis_tdata(queued_piece_tdata), .m_axis_tkeep(queued_piece_tkeep), .m_axis_tvalid(queued_piece_tvalid),
    .m_axis_tready(queued_piece_tready), .m_axis_tlast(queued_piece_tlast), .m_axis_tuser(),
    .status_good_frame(), .status_bad_frame(), .status_oversize_frame()
);

axi_dma_write #(
    .DATA_WIDTH(DATA_WIDTH), .ADDR_WIDTH(64), .LEN_WIDTH(16), .ID_WIDTH(4)
) namespace_write_inst (
    .clk(clk), .rst(rst),
    .s_cmd_addr(ns_write_cmd_addr), .s_cmd_len(ns_write_cmd_len), .s_cmd_valid(ns_write_cmd_valid),
    .s_cmd_ready(ns_write_cmd_ready),
    .s_axis_tdata(ns_write_from_host ? queued_piece_tdata : ns_write_tdata),
    .s_axis_tkeep(ns_write_from_host ? queued_piece_tkeep : ns_write_tkeep),
    .s_axis_tvalid(ns_write_from_host ? queued_piece_tvalid : ns_write_tvalid), .s_axis_tready(namespace_write_tready),
    .s_axis_tlast(ns_write_from_host ? queued_piece_tlast : ns_write_tlast),
    .m_axi_awid(m_axi_awid), .m_axi_awaddr(m_axi_awaddr), .m_axi_awlen(m_axi_awlen), .m_axi_awsize(m_axi_awsize),
    .m_axi_awburst(m_axi_awburst), .m_axi_awlock(m_axi_awlock), .m_axi_awcache(m_axi_awcache),
    .m_axi_awprot(m_axi_awprot), .m_axi_awvalid(namespace_awvalid), .m_axi_awready(m_axi_awready),
    .m_axi_wdata(m_axi_wdata), .m_axi_wstrb(m_axi_wstrb), .m_axi_wlast(m_axi_wlast), .m_axi_wvalid(namespace_wvalid),
    .m_axi_wready(m_axi_wready), .m_axi_bid(m_axi_bid), .m_axi_bresp(m_axi_bresp), .m_axi_bvalid(m_axi_bvalid),
    .m_axi_bready(namespace_bready),
    .status_valid(ns_write_status_valid), .status_error(ns_write_status_error)
);
wire [63:0]  bulk_address;
wire [10:0]  bulk_dwords, bulk_source_index;
// Counter events
localparam QUEUE_INDEX_WIDTH = $clog2(QUEUES);
localparam QUEUE_SLOTS = 1 << QUEUE_INDEX_WIDTH;
wire         event_command, event_command_admin, event_command_unreadable, event_post, event_completion,
             event_sq_doorbell, event_fetch;
wire [2:0]   completion_status_type;
wire [7:0]   completion_status_code;
wire [QUEUE_INDEX_WIDTH-1:0] sq_doorbell_queue, fetch_queue;
wire [DATA_WIDTH-1:0] bulk_source_data;

nvme_queue_engine #(
    .QUEUES(QUEUES),
    .DATA_WIDTH(DATA_WIDTH),
    .NAMESPACE_BLOCKS(NAMESPACE_BLOCKS),
    .LBA_SHIFT(LBA_SHIFT),
    .VECTORS(VECTORS),
    .TEMPERATURE_KELVIN(TEMPERATURE_KELVIN)
) queue_engine_inst (
    .clk(clk), .rst(rst),
    .enabled(enabled), .stopping(stopping), .busy(engine_busy), .sq_size(admin_sq_size),
    .cq_size(admin_cq_size), .sq_base(admin_sq_base),
    .cq_base(admin_cq_base),
    .doorbell_valid(doorbell_valid), .doorbell_queue(doorbell_queue), .doorbell_is_cq_head(doorbell_is_cq_head),
    .doorbell_value(doorbell_value), .invalid_doorbell(invalid_doorbell),
    .write_valid(engine_write_valid), .write_ready(engine_write_ready), .write_address(engine_write_address),
    .write_dwords(engine_write_dwords), .write_data(engine_write_data),
    .read_valid(engine_read_valid), .read_ready(engine_read_ready), .read_address(engine_read_address),
    .read_dwords(engine_read_dwords), .read_done(read_done && !small_read_for_io), .read_data(read_data), .read_error(read_error),
    .write_done(write_done), .interrupt_request(interrupt_request), .interrupt_vector(interrupt_vector),
    .interrupt_admin(interrupt_admin), .interrupt_coalescing_setting(interrupt_coalescing_setting),
    .vector_coalescing_disabled(vector_coalescing_disabled),
    .bulk_valid(bulk_valid), .bulk_ready(bulk_ready), .bulk_address(bulk_address), .bulk_dwords(bulk_dwords),
    .bulk_source_index(bulk_source_index), .bulk_source_data(bulk_source_data), .bulk_done(bulk_done),
    .io_start(io_start), .io_opcode(io_opcode), .io_nsid(io_nsid), .io_slba(io_slba), .io_nlb(io_nlb),
    .io_last_lba(io_last_lba),
    .io_prp1(io_prp1), .io_prp2(io_prp2), .io_done(io_done), .io_status_code(io_status_code),
    .io_released(io_released), .io_drain_done(io_drain_done), .io_drain_status(io_drain_status), .io_drain_free(io_drain_free), .io_active(io_active),
    .event_command(event_command), .event_command_admin(event_command_admin),
    .event_command_unreadable(event_command_unreadable), .event_post(event_post),
    .event_completion(event_completion),
    .completion_status_type(completion_status_type), .completion_status_code(completion_status_code),
    .completion_drained(completion_drained),
    .event_sq_doorbell(event_sq_doorbell), .sq_doorbell_queue(sq_doorbell_queue), .event_fetch(event_fetch),
    .fetch_queue(fetch_queue)
);

// ---- Counters: BAR0 0x4000 ----

nvme_counters #(
    .QUEUE_SLOTS(QUEUE_SLOTS),
    .ADDR_WIDTH(WINDOW_ADDR_WIDTH)
) counters_inst (
    .clk(clk), .rst(rst),
    .s_axil_awaddr(window_awaddr[2*WINDOW_ADDR_WIDTH +: WINDOW_ADDR_WIDTH]), .s_axil_awvalid(window_awvalid[2]),
    .s_axil_awready(window_awready[2]), .s_axil_wdata(window_wdata[64 +: 32]), .s_axil_wstrb(window_wstrb[8 +: 4]),
    .s_axil_wvalid(window_wvalid[2]), .s_axil_wready(window_wready[2]), .s_axil_bresp(window_bresp[4 +: 2]),
    .s_axil_bvalid(window_bvalid[2]), .s_axil_bready(window_bready[2]),
    .s_axil_araddr(window_araddr[2*WINDOW_ADDR_WIDTH +: WINDOW_ADDR_WIDTH]), .s_axil_arvalid(window_arvalid[2]),
    .s_axil_arready(window_arready[2]), .s_axil_rdata(window_rdata[64 +: 32]), .s_axil_rresp(window_rresp[4 +: 2]),
    .s_axil_rvalid(window_rvalid[2]), .s_axil_rready(window_rready[2]),
    .command_event(event_command), .command_admin(event_command_admin),
    .command_unreadable(event_command_unreadable), .command_opcode(io_opcode),
    .post_event(event_post), .release_event(io_released), .completion_event(event_completion), .completion_status_type(completion_status_type),
    .completion_status_code(completion_status_code),
    .data_event(data_event), .data_to_host(data_to_host), .data_bytes(data_bytes), .data_last_event(data_last_event),
    .drain_data_last_event(drain_data_last_event), .completion_drained(completion_drained),
    .sq_doorbell_event(event_sq_doorbell), .sq_doorbell_queue(sq_doorbell_queue),
    .fetch_event(event_fetch), .fetch_queue(fetch_queue),
    .interrupt_request_event(interrupt_request), .interrupt_sent_event(cfg_interrupt_msix_int)
);

pcie_us_requester #(
    .DATA_WIDTH(DATA_WIDTH),
    .COMPLETION_TIMEOUT(COMPLETION_TIMEOUT)
) requester_inst (
    .clk(clk), .rst(rst),
    .write_valid(write_valid), .write_ready(write_ready), .write_address(write_address),
    .write_dwords(write_dwords), .write_data(write_data), .write_done(write_done),
    .bulk_valid(bulk_valid), .bulk_ready(bulk_ready), .bulk_address(bulk_address), .bulk_dwords(bulk_dwords),
    .bulk_source_index(bulk_source_index), .bulk_source_data(bulk_source_data), .bulk_done(bulk_done),
    .stream_valid(io_stream_valid && io_active), .stream_ready(stream_ready), .stream_address(io_stream_address),
    .stream_dwords(io_stream_dwords), .s_stream_tdata(ns_read_tdata), .s_stream_tkeep(ns_read_tkeep),
    .s_stream_tvalid(ns_read_tvalid), .s_stream_tready(ns_read_tready), .s_stream_tlast(ns_read_tlast),
    .stream_done(stream_done),
    .stream_read_valid(io_stream_read_valid && io_active), .stream_read_ready(stream_read_ready),
    .stream_read_address(io_stream_read_address), .stream_read_dwords(io_stream_read_dwords),
    .stream_read_context(io_stream_read_context),
    .stream_read_done(stream_read_done), .stream_read_error(stream_read_error), .stream_read_done_context(stream_read_done_context),
    .stream_reads_outstanding(),
    .piece_valid(piece_valid), .piece_ready(piece_ready), .piece_offset(piece_offset), .piece_bytes(piece_bytes),
    .piece_context(piece_context),
    .m_piece_tdata(piece_tdata), .m_piece_tkeep(piece_tkeep), .m_piece_tvalid(piece_tvalid),
    .m_piece_tready(piece_tready), .m_piece_tlast(piece_tlast),
    .max_payload(cfg_max_payload),
    .read_valid(read_valid), .read_ready(read_ready), .read_address(read_address), .read_dwords(read_dwords),
    .read_done(read_done), .read_data(read_data), .read_error(read_error),
    .m_axis_rq_tdata(s_axis_rq_tdata), .m_axis_rq_tkeep(s_axis_rq_tkeep), .m_axis_rq_tvalid(s_axis_rq_tvalid),
    .m_axis_rq_tready(s_axis_rq_tready), .m_axis_rq_tlast(s_axis_rq_tlast), .m_axis_rq_tuser(s_axis_rq_tuser),
    .s_axis_rc_tdata(m_axis_rc_tdata), .s_axis_rc_tkeep(m_axis_rc_tkeep), .s_axis_rc_tvalid(m_axis_rc_tvalid),
    .s_axis_rc_tready(m_axis_rc_tready), .s_axis_rc_tlast(m_axis_rc_tlast), .s_axis_rc_tuser(m_axis_rc_tuser)
);

endmodule

`resetall
