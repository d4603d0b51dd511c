// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// One rank of a ring all-reduce: local buffer, reduce-scatter and all-gather engines, CSRs and counters
`resetall
`timescale 1ns / 1ps
`default_nettype none

// Software writes CONFIG, RING and LENGTH, then CTRL.start on every rank; each rank sends to the
// next over m_axis_tx and receives from the previous on s_axis_rx. When STATUS.done is set, the
// buffer holds the reduced vector (see ring_schedule for the order of operations). A start with
// a bad configuration is refused with an error flag; it never hangs the ring.
module allreduce_rank #(
    // Width of a beat on the ring streams (a multiple of 32)
    parameter DATA_WIDTH = 512,
    // Beats the local buffer holds (a power of two); the vector must fit
    parameter BUFFER_BEATS = 1024,
    // Largest ring size (at most 16)
    parameter MAX_RANKS = 16,
    // Byte address of the next block in the register-block chain (0: none)
    parameter [31:0] NEXT_BLOCK_ADDRESS = 32'd0
) (
    input  wire                    clk,
    input  wire                    rst,

    input  wire [11:0]             s_axil_awaddr,
    input  wire [2:0]              s_axil_awprot,
    input  wire                    s_axil_awvalid,
    output wire                    s_axil_awready,
    input  wire [31:0]             s_axil_wdata,
    input  wire [3:0]              s_axil_wstrb,
    input  wire                    s_axil_wvalid,
    output wire                    s_axil_wready,
    output wire [1:0]              s_axil_bresp,
    output wire                    s_axil_bvalid,
    input  wire                    s_axil_bready,
    input  wire [11:0]             s_axil_araddr,
    input  wire [2:0]              s_axil_arprot,
    input  wire                    s_axil_arvalid,
    output wire                    s_axil_arready,
    output wire [31:0]             s_axil_rdata,
    output wire [1:0]              s_axil_rresp,
    output wire                    s_axil_rvalid,
    input  wire                    s_axil_rready,

    output wire [DATA_WIDTH-1:0]   m_axis_tx_tdata,
    output wire [DATA_WIDTH/8-1:0] m_axis_tx_tkeep,
    output wire                    m_axis_tx_tvalid,
    input  wire                    m_axis_tx_tready,
    output wire                    m_axis_tx_tlast,

    input  wire [DATA_WIDTH-1:0]   s_axis_rx_tdata,
    input  wire [DATA_WIDTH/8-1:0] s_axis_rx_tkeep,
    input  wire                    s_axis_rx_tvalid,
    output wire                    s_axis_rx_tready,
    input  wire                    s_axis_rx_tlast,

    // Host access to the buffer, honoured only while no collective runs (read data a cycle later)
    input  wire                               host_write_enable,
    input  wire [$clog2(BUFFER_BEATS)-1:0]    host_address,
    input  wire [DATA_WIDTH-1:0]              host_write_data,
    output wire [DATA_WIDTH-1:0]              host_read_data
);

localparam KEEP_WIDTH = DATA_WIDTH / 8;
localparam BEAT_BYTES_LOG2 = $clog2(KEEP_WIDTH);
localparam ADDR_WIDTH = $clog2(BUFFER_BEATS);
localparam COUNT_WIDTH = ADDR_WIDTH + 1;
localparam RANK_WIDTH = 5;
localparam [31:0] BEAT_BYTES = KEEP_WIDTH;
localparam [31:0] MAX_RANKS_32 = MAX_RANKS;
localparam [31:0] ADDR_WIDTH_32 = ADDR_WIDTH;
localparam [31:0] BUFFER_BEATS_32 = BUFFER_BEATS;

initial begin
    if (DATA_WIDTH % 32 != 0 || (1 << BEAT_BYTES_LOG2) != KEEP_WIDTH) begin
        $error("Error: DATA_WIDTH must be a power-of-two multiple of 32 (instance %m)");
        $finish;
    end
    if ((1 << ADDR_WIDTH) != BUFFER_BEATS || MAX_RANKS < 2 || MAX_RANKS > 16) begin
        $error("Error: BUFFER_BEATS must be a power of two and MAX_RANKS 2 to 16 (instance %m)");
        $finish;
    end
end

wire        start_request, clear_request, flush_subnormals_config;
wire [2:0]  dtype_config;
wire [1:0]  op_config;
wire [7:0]  rank_config, size_config;
wire [31:0] elements_config;

reg        busy, done, config_error, ring_error, length_error, data_error;
reg [31:0] error_count;
reg [63:0] collective_cycles, reduce_scatter_bytes, all_gather_bytes, reducer_beats;
reg [63:0] reducer_starved_cycles, send_backpressure_cycles, nan_elements, overflow_elements;

// Configuration latched at start, so CSR writes during a collective change nothing.
reg [2:0]             dtype;
reg [1:0]             op;
reg                   flush_subnormals;
reg [RANK_WIDTH-1:0]  rank, ranks;
reg [COUNT_WIDTH-1:0] total_beats;
reg [KEEP_WIDTH-1:0]  final_keep;
reg                   preparing, sender_done, receiver_done;

`include "element_bytes.vh"

wire [34:0] vector_bytes = {3'd0, elements_config} * {32'd0, element_bytes(dtype_config)};
localparam [34:0] BEAT_ROUND_UP = {3'd0, BEAT_BYTES - 32'd1};
wire [34:0] vector_beats = (vector_bytes + BEAT_ROUND_UP) >> BEAT_BYTES_LOG2;
wire [BEAT_BYTES_LOG2-1:0] final_beat_bytes = vector_bytes[BEAT_BYTES_LOG2-1:0];

wire refuse_config = dtype_config > 3'd6 || op_config > 2'd2;
wire refuse_ring = size_config < 8'd2 || {24'd0, size_config} > MAX_RANKS_32 || rank_config >= size_config;
wire refuse_length = elements_config == 0 || vector_beats > {3'd0, BUFFER_BEATS_32};
wire accept_start = start_request && !busy && !refuse_config && !refuse_ring && !refuse_length;

wire chunks_ready;
wire [RANK_WIDTH-1:0]  sender_chunk, receiver_chunk;
wire [COUNT_WIDTH-1:0] sender_chunk_start, sender_chunk_beats, receiver_chunk_start, receiver_chunk_beats;
wire                   launch = preparing && chunks_ready;

ring_chunks #(
    .MAX_RANKS(MAX_RANKS),
    .COUNT_WIDTH(COUNT_WIDTH),
    .RANK_WIDTH(RANK_WIDTH)
) chunks_inst (
    .clk(clk),
    .rst(rst),
    .compute(accept_start),
    .total_beats(vector_beats[COUNT_WIDTH-1:0]),
    .ranks(ranks),  // latched at start, so a RING write during the collective changes nothing
    .ready(chunks_ready),
    .lookup_a_chunk(sender_chunk),
    .lookup_a_start(sender_chunk_start),
    .lookup_a_beats(sender_chunk_beats),
    .lookup_b_chunk(receiver_chunk),
    .lookup_b_start(receiver_chunk_start),
    .lookup_b_beats(receiver_chunk_beats)
);

wire [ADDR_WIDTH-1:0] sender_read_address, receiver_read_address, receiver_write_address;
wire [DATA_WIDTH-1:0] read_a_data, read_b_data, receiver_write_data;
wire                  receiver_write_enable, sender_finished, receiver_finished, all_gather;
wire [RANK_WIDTH:0]   receiver_steps_done;
wire [COUNT_WIDTH-1:0] receiver_beats_written;

ring_buffer #(
    .DATA_WIDTH(DATA_WIDTH),
    .DEPTH(BUFFER_BEATS)
) buffer_inst (
    .clk(clk),
    .write_enable(busy ? receiver_write_enable : host_write_enable),
    .write_address(busy ? receiver_write_address : host_address),
    .write_data(busy ? receiver_write_data : host_write_data),
    .read_a_address(busy ? sender_read_address : host_address),
    .read_a_data(read_a_data),
    .read_b_address(receiver_read_address),
    .read_b_data(read_b_data)
);

assign host_read_data = read_a_data;

ring_sender #(
    .DATA_WIDTH(DATA_WIDTH),
    .ADDR_WIDTH(ADDR_WIDTH),
    .COUNT_WIDTH(COUNT_WIDTH),
    .RANK_WIDTH(RANK_WIDTH)
) sender_inst (
    .clk(clk),
    .rst(rst),
    .launch(launch),
    .rank(rank),
    .ranks(ranks),
    .total_beats(total_beats),
    .final_keep(final_keep),
    .finished(sender_finished),
    .all_gather(all_gather),
    .chunk(sender_chunk),
    .chunk_start(sender_chunk_start),
    .chunk_beats(sender_chunk_beats),
    .receiver_steps_done(receiver_steps_done),
    .receiver_beats_written(receiver_beats_written),
    .read_address(sender_read_address),
    .read_data(read_a_data),
    .m_axis_tdata(m_axis_tx_tdata),
    .m_axis_tkeep(m_axis_tx_tkeep),
    .m_axis_tvalid(m_axis_tx_tvalid),
    .m_axis_tready(m_axis_tx_tready),
    .m_axis_tlast(m_axis_tx_tlast)
);

wire       reducer_beat, reducer_starved, data_error_event;
wire [7:0] nan_event, overflow_event;

ring_receiver #(
    .DATA_WIDTH(DATA_WIDTH),
    .ADDR_WIDTH(ADDR_WIDTH),
    .COUNT_WIDTH(COUNT_WIDTH),
    .RANK_WIDTH(RANK_WIDTH)
) receiver_inst (
    .clk(clk),
    .rst(rst),
    .launch(launch),
    .rank(rank),
    .ranks(ranks),
    .total_beats(total_beats),
    .final_keep(final_keep),
    .dtype(dtype),
    .op(op),
    .flush_subnormals(flush_subnormals),
    .finished(receiver_finished),
    .steps_done(receiver_steps_done),
    .beats_written(receiver_beats_written),
    .chunk(receiver_chunk),
    .chunk_start(receiver_chunk_start),
    .chunk_beats(receiver_chunk_beats),
    .s_axis_tdata(s_axis_rx_tdata),
    .s_axis_tkeep(s_axis_rx_tkeep),
    .s_axis_tvalid(s_axis_rx_tvalid),
    .s_axis_tready(s_axis_rx_tready),
    .s_axis_tlast(s_axis_rx_tlast),
    .read_address(receiver_read_address),
    .read_data(read_b_data),
    .write_enable(receiver_write_enable),
    .write_address(receiver_write_address),
    .write_data(receiver_write_data),
    .event_reducer_beat(reducer_beat),
    .event_starved(reducer_starved),
    .event_nan_elements(nan_event),
    .event_overflow_elements(overflow_event),
    .event_data_error(data_error_event)
);

function [7:0] count_ones(input [KEEP_WIDTH-1:0] bits);
    integer index;
    begin
        count_ones = 0;
        for (index = 0; index < KEEP_WIDTH; index = index + 1) begin
            count_ones = count_ones + {7'd0, bits[index]};
        end
    end
endfunction

wire send_beat = m_axis_tx_tvalid && m_axis_tx_tready;
// The bytes of the beat sent last cycle, by phase (zero when none was): the popcount of a
// 64-byte keep and the 64-bit counter's carry chain in one cycle were the rank's longest path
reg [7:0] reduce_scatter_beat_bytes, all_gather_beat_bytes;

always @(posedge clk) begin
    if (busy) begin
        collective_cycles <= collective_cycles + 1;
        if (m_axis_tx_tvalid && !m_axis_tx_tready) send_backpressure_cycles <= send_backpressure_cycles + 1;
        if (reducer_beat) reducer_beats <= reducer_beats + 1;
        if (reducer_starved) reducer_starved_cycles <= reducer_starved_cycles + 1;
        if (data_error_event) begin
            data_error <= 1'b1;
            error_count <= error_count + 1;
        end
        if (sender_finished) sender_done <= 1'b1;
        if (receiver_finished) receiver_done <= 1'b1;
        if (sender_done && receiver_done) begin
            busy <= 1'b0;
            done <= 1'b1;
        end
    end
    reduce_scatter_beat_bytes <= busy && send_beat && !all_gather ? count_ones(m_axis_tx_tkeep) : 8'd0;
    all_gather_beat_bytes <= busy && send_beat && all_gather ? count_ones(m_axis_tx_tkeep) : 8'd0;
    // Not gated by busy: a beat's bytes are counted a cycle after it, and the reducer counts its
    // elements two cycles after it, which for the last beat can be after busy falls (a count is
    // zero outside a collective)
    reduce_scatter_bytes <= reduce_scatter_bytes + {56'd0, reduce_scatter_beat_bytes};
    all_gather_bytes <= all_gather_bytes + {56'd0, all_gather_beat_bytes};
    nan_elements <= nan_elements + {56'd0, nan_event};
    overflow_elements <= overflow_elements + {56'd0, overflow_event};
    if (launch) begin
        preparing <= 1'b0;
    end

    if (start_request && busy) begin
        error_count <= error_count + 1;  // a start while busy is ignored, but counted
    end
    if (start_request && !busy) begin
        config_error <= refuse_config;
        ring_error <= refuse_ring;
        length_error <= refuse_length;
        data_error <= 1'b0;
        done <= !accept_start;  // a refused start is over at once; its flags say why
        if (!accept_start) error_count <= error_count + 1;
    end
    if (accept_start) begin
        busy <= 1'b1;
        preparing <= 1'b1;
        sender_done <= 1'b0;
        receiver_done <= 1'b0;
        dtype <= dtype_config;
        op <= op_config;
        flush_subnormals <= flush_subnormals_config;
        rank <= rank_config[RANK_WIDTH-1:0];
        ranks <= size_config[RANK_WIDTH-1:0];
        total_beats <= vector_beats[COUNT_WIDTH-1:0];
        final_keep <= final_beat_bytes == 0 ? {KEEP_WIDTH{1'b1}}
                                            : ~({KEEP_WIDTH{1'b1}} << final_beat_bytes);
        collective_cycles <= 0;
        reduce_scatter_bytes <= 0;
        all_gather_bytes <= 0;
        reducer_beats <= 0;
        reducer_starved_cycles <= 0;
        send_backpressure_cycles <= 0;
        nan_elements <= 0;
        overflow_elements <= 0;
    end

    if (rst || clear_request) begin
        reduce_scatter_beat_bytes <= 8'd0;
        all_gather_beat_bytes <= 8'd0;
        config_error <= 1'b0;
        ring_error <= 1'b0;
        length_error <= 1'b0;
        data_error <= 1'b0;
        error_count <= 0;
        collective_cycles <= 0;
        reduce_scatter_bytes <= 0;
        all_gather_bytes <= 0;
        reducer_beats <= 0;
        reducer_starved_cycles <= 0;
        send_backpressure_cycles <= 0;
        nan_elements <= 0;
        overflow_elements <= 0;
    end
    if (rst) begin
        busy <= 1'b0;
        done <= 1'b0;
        preparing <= 1'b0;
    end
end

allreduce_rank_csr csr_inst (
    .clk(clk),
    .rst(rst),
    .s_axil_awready(s_axil_awready),
    .s_axil_awvalid(s_axil_awvalid),
    .s_axil_awaddr(s_axil_awaddr),
    .s_axil_awprot(s_axil_awprot),
    .s_axil_wready(s_axil_wready),
    .s_axil_wvalid(s_axil_wvalid),
    .s_axil_wdata(s_axil_wdata),
    .s_axil_wstrb(s_axil_wstrb),
    .s_axil_bready(s_axil_bready),
    .s_axil_bvalid(s_axil_bvalid),
    .s_axil_bresp(s_axil_bresp),
    .s_axil_arready(s_axil_arready),
    .s_axil_arvalid(s_axil_arvalid),
    .s_axil_araddr(s_axil_araddr),
    .s_axil_arprot(s_axil_arprot),
    .s_axil_rready(s_axil_rready),
    .s_axil_rvalid(s_axil_rvalid),
    .s_axil_rdata(s_axil_rdata),
    .s_axil_rresp(s_axil_rresp),
    .hwif_in_block_next_address(NEXT_BLOCK_ADDRESS),
    .hwif_in_capabilities_beat_bytes(BEAT_BYTES[7:0]),
    .hwif_in_capabilities_max_ranks(MAX_RANKS_32[7:0]),
    .hwif_in_capabilities_buffer_beats_log2(ADDR_WIDTH_32[7:0]),
    .hwif_out_ctrl_start(start_request),
    .hwif_out_ctrl_clear_counters(clear_request),
    .hwif_out_config_dtype(dtype_config),
    .hwif_out_config_op(op_config),
    .hwif_out_config_flush_subnormals(flush_subnormals_config),
    .hwif_out_ring_rank(rank_config),
    .hwif_out_ring_size(size_config),
    .hwif_out_length_elements(elements_config),
    .hwif_in_status_busy(busy),
    .hwif_in_status_done(done),
    .hwif_in_status_config_error(config_error),
    .hwif_in_status_ring_error(ring_error),
    .hwif_in_status_length_error(length_error),
    .hwif_in_status_data_error(data_error),
    .hwif_in_errors_count(error_count),
    .hwif_in_collective_cycles_value(collective_cycles),
    .hwif_in_reduce_scatter_bytes_value(reduce_scatter_bytes),
    .hwif_in_all_gather_bytes_value(all_gather_bytes),
    .hwif_in_reducer_beats_value(reducer_beats),
    .hwif_in_reducer_starved_cycles_value(reducer_starved_cycles),
    .hwif_in_send_backpressure_cycles_value(send_backpressure_cycles),
    .hwif_in_nan_elements_value(nan_elements),
    .hwif_in_overflow_elements_value(overflow_elements)
);

endmodule

`resetall
