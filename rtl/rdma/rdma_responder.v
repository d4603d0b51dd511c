// RDMA responder top: MAC frames in, RoCEv2 RC WRITE and READ executed on AXI4 memory, ACK/NAK and read responses out
`resetall
`timescale 1ns / 1ps
`default_nettype none

// roce_rx_parser -> roce_responder -> roce_tx_builder, with axi_dma_write placing WRITE payloads
// and axi_dma_read fetching READ response payloads on one AXI4 master. The MAC side never sees
// backpressure on receive: the parser buffers, and drops (and counts) what does not fit.
module rdma_responder #(
    // Width of the MAC streams and the memory bus in bits (64 to 512, a power of two)
    parameter DATA_WIDTH = 64,
    // Queue pairs in the context RAM (a power of two)
    parameter QP_COUNT = 256,
    // Registered memory regions (a power of two)
    parameter MR_COUNT = 16,
    // Receive buffer for payloads in bytes (a power of two, at least one 4 KiB packet)
    parameter RX_BUFFER_BYTES = 16384,
    // Byte address of the next block in the register-block chain (0: none)
    parameter [31:0] NEXT_BLOCK_ADDRESS = 32'd0
) (
    input  wire                          clk,
    input  wire                          rst,

    // Registers (rtl/rdma/regs/rdma_responder.rdl): set-up, regions, counters
    input  wire [11:0]                   s_axil_awaddr,
    input  wire [2:0]                    s_axil_awprot,
    input  wire                          s_axil_awvalid,
    output wire                          s_axil_awready,
    input  wire [31:0]                   s_axil_wdata,
    input  wire [3:0]                    s_axil_wstrb,
    input  wire                          s_axil_wvalid,
    output wire                          s_axil_wready,
    output wire [1:0]                    s_axil_bresp,
    output wire                          s_axil_bvalid,
    input  wire                          s_axil_bready,
    input  wire [11:0]                   s_axil_araddr,
    input  wire [2:0]                    s_axil_arprot,
    input  wire                          s_axil_arvalid,
    output wire                          s_axil_arready,
    output wire [31:0]                   s_axil_rdata,
    output wire [1:0]                    s_axil_rresp,
    output wire                          s_axil_rvalid,
    input  wire                          s_axil_rready,

    // From the MAC: frames without FCS, tuser on the last beat for a MAC error; never stalled
    input  wire [DATA_WIDTH-1:0]         s_axis_rx_tdata,
    input  wire [DATA_WIDTH/8-1:0]       s_axis_rx_tkeep,
    input  wire                          s_axis_rx_tvalid,
    input  wire                          s_axis_rx_tlast,
    input  wire                          s_axis_rx_tuser,

    // To the MAC: frames without FCS
    output wire [DATA_WIDTH-1:0]         m_axis_tx_tdata,
    output wire [DATA_WIDTH/8-1:0]       m_axis_tx_tkeep,
    output wire                          m_axis_tx_tvalid,
    input  wire                          m_axis_tx_tready,
    output wire                          m_axis_tx_tlast,

    // Host memory
    output wire [3:0]                    m_axi_awid,
    output wire [63:0]                   m_axi_awaddr,
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
    input  wire [3:0]                    m_axi_bid,
    input  wire [1:0]                    m_axi_bresp,
    input  wire                          m_axi_bvalid,
    output wire                          m_axi_bready,
    output wire [3:0]                    m_axi_arid,
    output wire [63:0]                   m_axi_araddr,
    output wire [7:0]                    m_axi_arlen,
    output wire [2:0]                    m_axi_arsize,
    output wire [1:0]                    m_axi_arburst,
    output wire                          m_axi_arlock,
    output wire [3:0]                    m_axi_arcache,
    output wire [2:0]                    m_axi_arprot,
    output wire                          m_axi_arvalid,
    input  wire                          m_axi_arready,
    input  wire [3:0]                    m_axi_rid,
    input  wire [DATA_WIDTH-1:0]         m_axi_rdata,
    input  wire [1:0]                    m_axi_rresp,
    input  wire                          m_axi_rlast,
    input  wire                          m_axi_rvalid,
    output wire                          m_axi_rready
);

localparam KEEP_WIDTH = DATA_WIDTH / 8;

wire        event_frame_good, event_ack_sent, event_nak_sent, event_duplicate,
            event_sequence_drop, event_unknown_qp, event_access_error, event_invalid_request;

// ---- Registers ----

wire [12:0] pmtu_bytes;
wire [31:0] local_mac_low, local_ip, qp_remote_mac_low, qp_remote_ip, mr_rkey, mr_base_low, mr_base_high, mr_length;
wire [15:0] local_mac_high, qp_remote_mac_high, qp_index, qp_udp_source_port;
wire [23:0] qp_remote_qpn, qp_expected_psn;
wire [7:0]  mr_index;
wire        cfg_qp_ready, qp_valid, qp_commit, mr_valid, mr_remote_write, mr_remote_read, mr_commit;

localparam COUNTERS = 15;
wire [COUNTERS*32-1:0] counter_values;
wire [31:0] ack_latency_min, ack_latency_max, ack_latency_sum, ack_latency_count;
localparam [15:0] QP_COUNT_FIELD = QP_COUNT;
localparam [7:0]  MR_COUNT_FIELD = MR_COUNT;
localparam [7:0]  DATA_BYTES_FIELD = KEEP_WIDTH[7:0];

rdma_responder_csr csr_inst (
    .clk(clk), .rst(rst),
    .s_axil_awready(s_axil_awready), .s_axil_awvalid(s_axil_awvalid), .s_axil_awaddr(s_axil_awaddr),
    .s_axil_awprot(s_axil_awprot), .s_axil_wready(s_axil_wready), .s_axil_wvalid(s_axil_wvalid),
    .s_axil_wdata(s_axil_wdata), .s_axil_wstrb(s_axil_wstrb), .s_axil_bready(s_axil_bready),
    .s_axil_bvalid(s_axil_bvalid), .s_axil_bresp(s_axil_bresp), .s_axil_arready(s_axil_arready),
    .s_axil_arvalid(s_axil_arvalid), .s_axil_araddr(s_axil_araddr), .s_axil_arprot(s_axil_arprot),
    .s_axil_rready(s_axil_rready), .s_axil_rvalid(s_axil_rvalid), .s_axil_rdata(s_axil_rdata),
    .s_axil_rresp(s_axil_rresp),
    .hwif_in_block_next_address(NEXT_BLOCK_ADDRESS),
    .hwif_in_caps_qp_count(QP_COUNT_FIELD), .hwif_in_caps_mr_count(MR_COUNT_FIELD),
    .hwif_in_caps_data_bytes(DATA_BYTES_FIELD),
    .hwif_out_pmtu_bytes(pmtu_bytes), .hwif_out_local_mac_low_value(local_mac_low),
    .hwif_out_local_mac_high_value(local_mac_high), .hwif_out_local_ip_value(local_ip),
    .hwif_in_status_qp_ready(cfg_qp_ready),
    .hwif_out_qp_index_value(qp_index), .hwif_out_qp_remote_qpn_value(qp_remote_qpn),
    .hwif_out_qp_remote_mac_low_value(qp_remote_mac_low), .hwif_out_qp_remote_mac_high_value(qp_remote_mac_high),
    .hwif_out_qp_remote_ip_value(qp_remote_ip), .hwif_out_qp_udp_source_port_value(qp_udp_source_port),
    .hwif_out_qp_expected_psn_value(qp_expected_psn), .hwif_out_qp_ctrl_valid(qp_valid),
    .hwif_out_qp_ctrl_commit(qp_commit),
    .hwif_out_mr_index_value(mr_index), .hwif_out_mr_rkey_value(mr_rkey),
    .hwif_out_mr_base_low_value(mr_base_low), .hwif_out_mr_base_high_value(mr_base_high),
    .hwif_out_mr_length_value(mr_length), .hwif_out_mr_ctrl_valid(mr_valid),
    .hwif_out_mr_ctrl_remote_write(mr_remote_write), .hwif_out_mr_ctrl_remote_read(mr_remote_read),
    .hwif_out_mr_ctrl_commit(mr_commit),
    .hwif_in_rx_frames_value(counter_values[0*32 +: 32]), .hwif_in_rx_bytes_value(counter_values[1*32 +: 32]),
    .hwif_in_rx_frames_good_value(counter_values[2*32 +: 32]), .hwif_in_tx_frames_value(counter_values[3*32 +: 32]),
    .hwif_in_tx_bytes_value(counter_values[4*32 +: 32]), .hwif_in_acks_sent_value(counter_values[5*32 +: 32]),
    .hwif_in_naks_sent_value(counter_values[6*32 +: 32]), .hwif_in_duplicates_value(counter_values[7*32 +: 32]),
    .hwif_in_sequence_drops_value(counter_values[8*32 +: 32]),
    .hwif_in_unknown_qp_drops_value(counter_values[9*32 +: 32]),
    .hwif_in_access_errors_value(counter_values[10*32 +: 32]),
    .hwif_in_invalid_requests_value(counter_values[11*32 +: 32]),
    .hwif_in_drops_icrc_value(counter_values[12*32 +: 32]),
    .hwif_in_drops_malformed_value(counter_values[13*32 +: 32]),
    .hwif_in_drops_overflow_value(counter_values[14*32 +: 32]),
    .hwif_in_ack_latency_min_value(ack_latency_min), .hwif_in_ack_latency_max_value(ack_latency_max),
    .hwif_in_ack_latency_sum_value(ack_latency_sum), .hwif_in_ack_latency_count_value(ack_latency_count)
);

wire [47:0] local_mac = {local_mac_high, local_mac_low};
// A commit to an entry that does not exist is ignored, never folded onto another entry; a QP
// commit while the context RAM is still being cleared is ignored too (software polls
// STATUS.qp_ready first).
wire qp_index_exists = qp_index < QP_COUNT;
wire mr_index_exists = mr_index < MR_COUNT;
wire [$clog2(QP_COUNT)-1:0] qp_index_in_range = qp_index[$clog2(QP_COUNT)-1:0];
wire [$clog2(MR_COUNT)-1:0] mr_index_in_range = mr_index[$clog2(MR_COUNT)-1:0];
wire cfg_qp_write = qp_commit && cfg_qp_ready && qp_index_exists;
wire cfg_mr_write = mr_commit && mr_index_exists;

// ---- Receive: parse ----

wire        rx_hdr_valid, rx_hdr_ready, rx_hdr_ack_req;
wire [7:0]  rx_hdr_opcode;
wire [23:0] rx_hdr_dest_qp, rx_hdr_psn;
wire [63:0] rx_hdr_va;
wire [31:0] rx_hdr_rkey, rx_hdr_length;
wire [12:0] rx_hdr_payload_bytes;
wire [DATA_WIDTH-1:0] rx_payload_tdata;
wire [KEEP_WIDTH-1:0] rx_payload_tkeep;
wire        rx_payload_tvalid, rx_payload_tready, rx_payload_tlast;
wire        drop_mac_error, drop_truncated, drop_not_roce, drop_bad_length, drop_bad_version,
            drop_unknown_opcode, drop_bad_pad, drop_over_pmtu, drop_bad_icrc, drop_overflow;

roce_rx_parser #(
    .DATA_WIDTH(DATA_WIDTH),
    .PAYLOAD_FIFO_DEPTH(RX_BUFFER_BYTES * 8 / DATA_WIDTH)
) parser_inst (
    .clk(clk), .rst(rst),
    .s_axis_tdata(s_axis_rx_tdata), .s_axis_tkeep(s_axis_rx_tkeep), .s_axis_tvalid(s_axis_rx_tvalid),
    .s_axis_tlast(s_axis_rx_tlast), .s_axis_tuser(s_axis_rx_tuser),
    .pmtu_bytes(pmtu_bytes),
    .m_hdr_valid(rx_hdr_valid), .m_hdr_ready(rx_hdr_ready),
    .m_hdr_eth_dest_mac(), .m_hdr_eth_src_mac(), .m_hdr_ip_source(), .m_hdr_ip_dest(), .m_hdr_ip_tos(),
    .m_hdr_ip_ttl(), .m_hdr_udp_source_port(), .m_hdr_bth_opcode(rx_hdr_opcode), .m_hdr_bth_solicited(),
    .m_hdr_bth_migreq(), .m_hdr_bth_pkey(), .m_hdr_bth_fecn(), .m_hdr_bth_becn(),
    .m_hdr_bth_dest_qp(rx_hdr_dest_qp), .m_hdr_bth_ack_req(rx_hdr_ack_req), .m_hdr_bth_psn(rx_hdr_psn),
    .m_hdr_reth_va(rx_hdr_va), .m_hdr_reth_rkey(rx_hdr_rkey), .m_hdr_reth_length(rx_hdr_length),
    .m_hdr_aeth_syndrome(), .m_hdr_aeth_msn(), .m_hdr_immdt(), .m_hdr_payload_bytes(rx_hdr_payload_bytes),
    .m_axis_payload_tdata(rx_payload_tdata), .m_axis_payload_tkeep(rx_payload_tkeep),
    .m_axis_payload_tvalid(rx_payload_tvalid), .m_axis_payload_tready(rx_payload_tready),
    .m_axis_payload_tlast(rx_payload_tlast),
    .status_frame_good(event_frame_good), .status_drop_mac_error(drop_mac_error),
    .status_drop_truncated(drop_truncated), .status_drop_not_roce(drop_not_roce),
    .status_drop_bad_length(drop_bad_length), .status_drop_bad_version(drop_bad_version),
    .status_drop_unknown_opcode(drop_unknown_opcode), .status_drop_bad_pad(drop_bad_pad),
    .status_drop_over_pmtu(drop_over_pmtu), .status_drop_bad_icrc(drop_bad_icrc),
    .status_drop_overflow(drop_overflow)
);


// ---- Respond ----

wire [63:0] write_cmd_addr, read_cmd_addr;
wire [15:0] write_cmd_len, read_cmd_len;
wire        write_cmd_valid, write_cmd_ready, read_cmd_valid, read_cmd_ready;
wire        write_data_tvalid, write_data_tready, write_status_valid, write_status_error;
wire        tx_hdr_valid, tx_hdr_ready;
wire [47:0] tx_hdr_eth_dest_mac, tx_hdr_eth_src_mac;
wire [31:0] tx_hdr_ip_source, tx_hdr_ip_dest;
wire [15:0] tx_hdr_udp_source_port;
wire [7:0]  tx_hdr_opcode, tx_hdr_syndrome;
wire [23:0] tx_hdr_dest_qp, tx_hdr_psn, tx_hdr_msn;
wire [12:0] tx_hdr_payload_bytes;

roce_responder #(
    .QP_COUNT(QP_COUNT),
    .MR_COUNT(MR_COUNT)
) responder_inst (
    .clk(clk), .rst(rst),
    .local_mac(local_mac), .local_ip(local_ip), .pmtu_bytes(pmtu_bytes),
    .cfg_qp_ready(cfg_qp_ready), .cfg_qp_write(cfg_qp_write), .cfg_qp_index(qp_index_in_range),
    .cfg_qp_valid(qp_valid), .cfg_qp_remote_qpn(qp_remote_qpn),
    .cfg_qp_remote_mac({qp_remote_mac_high, qp_remote_mac_low}), .cfg_qp_remote_ip(qp_remote_ip),
    .cfg_qp_udp_source_port(qp_udp_source_port), .cfg_qp_expected_psn(qp_expected_psn),
    .cfg_mr_write(cfg_mr_write), .cfg_mr_index(mr_index_in_range), .cfg_mr_valid(mr_valid),
    .cfg_mr_rkey(mr_rkey), .cfg_mr_base({mr_base_high, mr_base_low}), .cfg_mr_length(mr_length),
    .cfg_mr_remote_write(mr_remote_write), .cfg_mr_remote_read(mr_remote_read),
    .s_hdr_valid(rx_hdr_valid), .s_hdr_ready(rx_hdr_ready), .s_hdr_bth_opcode(rx_hdr_opcode),
    .s_hdr_bth_dest_qp(rx_hdr_dest_qp), .s_hdr_bth_ack_req(rx_hdr_ack_req), .s_hdr_bth_psn(rx_hdr_psn),
    .s_hdr_reth_va(rx_hdr_va), .s_hdr_reth_rkey(rx_hdr_rkey), .s_hdr_reth_length(rx_hdr_length),
    .s_hdr_payload_bytes(rx_hdr_payload_bytes),
    .s_payload_tvalid(rx_payload_tvalid), .s_payload_tready(rx_payload_tready), .s_payload_tlast(rx_payload_tlast),
    .m_write_data_tvalid(write_data_tvalid), .m_write_data_tready(write_data_tready),
    .m_write_cmd_addr(write_cmd_addr), .m_write_cmd_len(write_cmd_len), .m_write_cmd_valid(write_cmd_valid),
    .m_write_cmd_ready(write_cmd_ready), .write_status_valid(write_status_valid),
    .write_status_error(write_status_error),
    .m_read_cmd_addr(read_cmd_addr), .m_read_cmd_len(read_cmd_len), .m_read_cmd_valid(read_cmd_valid),
    .m_read_cmd_ready(read_cmd_ready),
    .m_hdr_valid(tx_hdr_valid), .m_hdr_ready(tx_hdr_ready), .m_hdr_eth_dest_mac(tx_hdr_eth_dest_mac),
    .m_hdr_eth_src_mac(tx_hdr_eth_src_mac), .m_hdr_ip_source(tx_hdr_ip_source), .m_hdr_ip_dest(tx_hdr_ip_dest),
    .m_hdr_udp_source_port(tx_hdr_udp_source_port), .m_hdr_bth_opcode(tx_hdr_opcode),
    .m_hdr_bth_dest_qp(tx_hdr_dest_qp), .m_hdr_bth_psn(tx_hdr_psn), .m_hdr_aeth_syndrome(tx_hdr_syndrome),
    .m_hdr_aeth_msn(tx_hdr_msn), .m_hdr_payload_bytes(tx_hdr_payload_bytes),
    .event_ack_sent(event_ack_sent), .event_nak_sent(event_nak_sent), .event_duplicate(event_duplicate),
    .event_sequence_drop(event_sequence_drop), .event_unknown_qp(event_unknown_qp),
    .event_access_error(event_access_error), .event_invalid_request(event_invalid_request),
    .event_write_done(), .event_read_done()
);

// ---- Memory ----

axi_dma_write #(
    .DATA_WIDTH(DATA_WIDTH),
    .ADDR_WIDTH(64),
    .LEN_WIDTH(16),
    .ID_WIDTH(4)
) dma_write_inst (
    .clk(clk), .rst(rst),
    .s_cmd_addr(write_cmd_addr), .s_cmd_len(write_cmd_len), .s_cmd_valid(write_cmd_valid),
    .s_cmd_ready(write_cmd_ready),
    .s_axis_tdata(rx_payload_tdata), .s_axis_tkeep(rx_payload_tkeep), .s_axis_tvalid(write_data_tvalid),
    .s_axis_tready(write_data_tready), .s_axis_tlast(rx_payload_tlast),
    .m_axi_awid(m_axi_awid), .m_axi_awaddr(m_axi_awaddr), .m_axi_awlen(m_axi_awlen), .m_axi_awsize(m_axi_awsize),
    .m_axi_awburst(m_axi_awburst), .m_axi_awlock(m_axi_awlock), .m_axi_awcache(m_axi_awcache),
    .m_axi_awprot(m_axi_awprot), .m_axi_awvalid(m_axi_awvalid), .m_axi_awready(m_axi_awready),
    .m_axi_wdata(m_axi_wdata), .m_axi_wstrb(m_axi_wstrb), .m_axi_wlast(m_axi_wlast), .m_axi_wvalid(m_axi_wvalid),
    .m_axi_wready(m_axi_wready), .m_axi_bid(m_axi_bid), .m_axi_bresp(m_axi_bresp), .m_axi_bvalid(m_axi_bvalid),
    .m_axi_bready(m_axi_bready),
    .status_valid(write_status_valid), .status_error(write_status_error)
);

wire [DATA_WIDTH-1:0] read_data_tdata;
wire [KEEP_WIDTH-1:0] read_data_tkeep;
wire                  read_data_tvalid, read_data_tready, read_data_tlast;

axi_dma_read #(
    .DATA_WIDTH(DATA_WIDTH),
    .ADDR_WIDTH(64),
    .LEN_WIDTH(16),
    .ID_WIDTH(4)
) dma_read_inst (
    .clk(clk), .rst(rst),
    .s_cmd_addr(read_cmd_addr), .s_cmd_len(read_cmd_len), .s_cmd_valid(read_cmd_valid),
    .s_cmd_ready(read_cmd_ready),
    .m_axi_arid(m_axi_arid), .m_axi_araddr(m_axi_araddr), .m_axi_arlen(m_axi_arlen), .m_axi_arsize(m_axi_arsize),
    .m_axi_arburst(m_axi_arburst), .m_axi_arlock(m_axi_arlock), .m_axi_arcache(m_axi_arcache),
    .m_axi_arprot(m_axi_arprot), .m_axi_arvalid(m_axi_arvalid), .m_axi_arready(m_axi_arready),
    .m_axi_rid(m_axi_rid), .m_axi_rdata(m_axi_rdata), .m_axi_rresp(m_axi_rresp), .m_axi_rlast(m_axi_rlast),
    .m_axi_rvalid(m_axi_rvalid), .m_axi_rready(m_axi_rready),
    .m_axis_tdata(read_data_tdata), .m_axis_tkeep(read_data_tkeep), .m_axis_tvalid(read_data_tvalid),
    .m_axis_tready(read_data_tready), .m_axis_tlast(read_data_tlast), .m_axis_tuser()
);

// ---- Transmit: build ----

roce_tx_builder #(
    .DATA_WIDTH(DATA_WIDTH)
) builder_inst (
    .clk(clk), .rst(rst),
    .s_hdr_valid(tx_hdr_valid), .s_hdr_ready(tx_hdr_ready),
    .s_hdr_eth_dest_mac(tx_hdr_eth_dest_mac), .s_hdr_eth_src_mac(tx_hdr_eth_src_mac),
    .s_hdr_ip_source(tx_hdr_ip_source), .s_hdr_ip_dest(tx_hdr_ip_dest), .s_hdr_ip_tos(8'd0), .s_hdr_ip_ttl(8'd64),
    .s_hdr_udp_source_port(tx_hdr_udp_source_port), .s_hdr_bth_opcode(tx_hdr_opcode), .s_hdr_bth_solicited(1'b0),
    .s_hdr_bth_migreq(1'b0), .s_hdr_bth_pkey(16'hFFFF), .s_hdr_bth_dest_qp(tx_hdr_dest_qp),
    .s_hdr_bth_ack_req(1'b0), .s_hdr_bth_psn(tx_hdr_psn), .s_hdr_reth_va(64'd0), .s_hdr_reth_rkey(32'd0),
    .s_hdr_reth_length(32'd0), .s_hdr_aeth_syndrome(tx_hdr_syndrome), .s_hdr_aeth_msn(tx_hdr_msn),
    .s_hdr_immdt(32'd0), .s_hdr_payload_bytes(tx_hdr_payload_bytes),
    .s_axis_payload_tdata(read_data_tdata), .s_axis_payload_tkeep(read_data_tkeep),
    .s_axis_payload_tvalid(read_data_tvalid), .s_axis_payload_tready(read_data_tready),
    .s_axis_payload_tlast(read_data_tlast),
    .m_axis_tdata(m_axis_tx_tdata), .m_axis_tkeep(m_axis_tx_tkeep), .m_axis_tvalid(m_axis_tx_tvalid),
    .m_axis_tready(m_axis_tx_tready), .m_axis_tlast(m_axis_tx_tlast)
);

// ---- Counters ----

function [7:0] bytes_in(input [KEEP_WIDTH-1:0] keep);
    integer lane;
    begin
        bytes_in = 8'd0;
        for (lane = 0; lane < KEEP_WIDTH; lane = lane + 1) begin
            bytes_in = bytes_in + {7'd0, keep[lane]};
        end
    end
endfunction

wire rx_beat = s_axis_rx_tvalid;
wire tx_beat = m_axis_tx_tvalid && m_axis_tx_tready;
reg  tx_mid_frame;
always @(posedge clk) begin
    if (tx_beat) begin
        tx_mid_frame <= !m_axis_tx_tlast;
    end
    if (rst) begin
        tx_mid_frame <= 1'b0;
    end
end

wire drop_malformed = drop_mac_error | drop_truncated | drop_not_roce | drop_bad_length | drop_bad_version
                    | drop_unknown_opcode | drop_bad_pad | drop_over_pmtu;

event_counters #(
    .COUNT(COUNTERS),
    .WIDTH(32),
    .INCREMENT_WIDTH(8)
) counters_inst (
    .clk(clk), .rst(rst), .clear(1'b0),
    .increments({
        7'd0, drop_overflow, 7'd0, drop_malformed, 7'd0, drop_bad_icrc, 7'd0, event_invalid_request,
        7'd0, event_access_error, 7'd0, event_unknown_qp, 7'd0, event_sequence_drop, 7'd0, event_duplicate,
        7'd0, event_nak_sent, 7'd0, event_ack_sent,
        tx_beat ? bytes_in(m_axis_tx_tkeep) : 8'd0, 7'd0, tx_beat && m_axis_tx_tlast,
        7'd0, event_frame_good, rx_beat ? bytes_in(s_axis_rx_tkeep) : 8'd0, 7'd0, rx_beat && s_axis_rx_tlast
    }),
    .values(counter_values)
);

roce_ack_latency ack_latency_inst (
    .clk(clk), .rst(rst),
    .request_received(event_frame_good),
    .request_taken(rx_hdr_valid && rx_hdr_ready),
    .response_taken(tx_hdr_valid && tx_hdr_ready),
    .response_is_ack(tx_hdr_opcode == 8'h11 && tx_hdr_syndrome[6:5] == 2'b00),
    .frame_started(tx_beat && !tx_mid_frame),
    .latency_min(ack_latency_min),
    .latency_max(ack_latency_max),
    .latency_sum(ack_latency_sum),
    .latency_count(ack_latency_count)
);

endmodule

`resetall
