// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Collective engine: ring all-reduce between DPU nodes over the node's RDMA engine, with no host software in the loop
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "rdma_host_interface.vh"

// The protocol is NCCL's over verbs (docs/cluster.md). Each rank has one RC QP to the next rank
// (QP next) and one to the previous (QP prev), and SLOTS.count receive slots of SLOTS.bytes in
// its node memory. The vector is split into chunks as the all-reduce ring splits it (ring_chunks,
// ring_schedule: the same element order as dpuv.models.reduction.ring_allreduce), and each step's
// chunk into slot-sized pieces.
//
// - Data: piece q goes out as one RDMA WRITE WITH IMMEDIATE into slot q mod count of the next
//   rank; the immediate is {0, collective id (7 bits), dtype (3), op (2), step (5), q mod 2^14}.
//   The arrival's receive completion, which verbs orders after the data, tells the receiver the
//   slot is full; a piece of another collective, dtype, op, step or length is refused, so ranks
//   that disagree fail instead of reducing unlike data.
// - Credits: once a piece is taken out of its slot, the receiver re-posts the receive it used and
//   sends a zero-length RDMA WRITE WITH IMMEDIATE on QP prev whose immediate is {1, collective id,
//   pieces taken (24 bits)}: the sender may write piece q once q < taken + count. A credit carries
//   a running count, so one credit may grant several slots and a lost credit costs nothing.
// - Reduce-scatter (steps 0 to n-2): the piece in the slot is the incoming partial; the reducer
//   combines it with the local piece (incoming op local) and the result replaces the local piece,
//   which is what goes on at the next step. All-gather: the piece is copied into the vector.
//   The last step's pieces go no further.
//
// A piece is taken only once its write into the vector is answered, so the WRITE that sends it on
// reads the new bytes. A WRITE's bytes may be read again by a retransmission until it is
// acknowledged; the vector region it reads is next overwritten only by the all-gather piece that
// comes back around the ring, which cannot exist before this WRITE was delivered. A retransmission
// after delivery may read the overwritten bytes, but the responder drops a duplicate WRITE (its
// PSN is behind) without writing it or taking a receive, so they never land.
//
// The engine writes its WQEs into the QPs' send queues itself and rings the RDMA engine's doorbell
// ports; the RDMA engine hands it the completions of both QPs (its OFFLOAD_QPS). The receive WQEs
// are written once by the host (their buffers are never used: an immediate's WRITE lands where
// its RETH says); the engine only rings the receive doorbells.
module collective_engine #(
    // Width of the memory bus in bits (64 to 512, a power of two)
    parameter DATA_WIDTH = 64,
    // Largest ring size
    parameter MAX_RANKS = 16,
    // Most receive slots per rank
    parameter MAX_SLOTS = 16,
    // The node's on-chip slot memory, reported to the host (SLOT_MEMORY_BASE and _BYTES registers;
    // 0 bytes: none). The engine reads its slots wherever SLOT_BASE puts them.
    parameter [63:0] SLOT_MEMORY_BASE = 64'd0,
    parameter SLOT_MEMORY_BYTES = 0,
    // Register-bus address of the next block in the chain (0: the last)
    parameter [31:0] NEXT_BLOCK_ADDRESS = 32'd0
) (
    input  wire                    clk,
    input  wire                    rst,

    // Registers (rtl/collective/regs/collective_engine.rdl)
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

    // To the RDMA engine's doorbell ports
    output wire                    m_sq_doorbell_valid,
    input  wire                    m_sq_doorbell_ready,
    output wire [15:0]             m_sq_doorbell_qpn,
    output wire [15:0]             m_sq_doorbell_producer_index,
    output reg                     m_rq_doorbell_valid,
    input  wire                    m_rq_doorbell_ready,
    output reg  [15:0]             m_rq_doorbell_qpn,
    output reg  [15:0]             m_rq_doorbell_producer_index,

    // From the RDMA engine's completion port (always taken)
    input  wire                    s_completion_valid,
    output wire                    s_completion_ready,
    input  wire [63:0]             s_completion_wr_id,
    input  wire [31:0]             s_completion_byte_len,
    input  wire [31:0]             s_completion_immediate,
    input  wire                    s_completion_immediate_valid,
    input  wire [23:0]             s_completion_qpn,
    input  wire [7:0]              s_completion_opcode,
    input  wire [7:0]              s_completion_status,

    // Node memory
    output wire [3:0]              m_axi_awid,
    output wire [63:0]             m_axi_awaddr,
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
    input  wire [3:0]              m_axi_bid,
    input  wire [1:0]              m_axi_bresp,
    input  wire                    m_axi_bvalid,
    output wire                    m_axi_bready,
    output wire [3:0]              m_axi_arid,
    output wire [63:0]             m_axi_araddr,
    output wire [7:0]              m_axi_arlen,
    output wire [2:0]              m_axi_arsize,
    output wire [1:0]              m_axi_arburst,
    output wire                    m_axi_arlock,
    output wire [3:0]              m_axi_arcache,
    output wire [2:0]              m_axi_arprot,
    output wire                    m_axi_arvalid,
    input  wire                    m_axi_arready,
    input  wire [3:0]              m_axi_rid,
    input  wire [DATA_WIDTH-1:0]   m_axi_rdata,
    input  wire [1:0]              m_axi_rresp,
    input  wire                    m_axi_rlast,
    input  wire                    m_axi_rvalid,
    output wire                    m_axi_rready
);

localparam KEEP_WIDTH = DATA_WIDTH / 8;
localparam BEAT_BYTES = DATA_WIDTH / 8;
localparam BEAT_BYTES_LOG2 = $clog2(BEAT_BYTES);
localparam RANK_WIDTH = $clog2(MAX_RANKS + 1);
localparam SLOT_WIDTH = $clog2(MAX_SLOTS + 1);
localparam COUNT_WIDTH = 24;
localparam [31:0] MAX_RANKS_32 = MAX_RANKS;
localparam [31:0] MAX_SLOTS_32 = MAX_SLOTS;
localparam [31:0] BEAT_BYTES_32 = BEAT_BYTES;
localparam [31:0] SLOT_MEMORY_BYTES_32 = SLOT_MEMORY_BYTES;
// Immediate layout (docs/cluster.md)
localparam IMM_CREDIT_BIT = 31;
localparam IMM_PIECE_BITS = 14;
localparam IMM_STEP_BITS = 5;

initial begin
    if (DATA_WIDTH < 64 || DATA_WIDTH > 512 || (DATA_WIDTH & (DATA_WIDTH - 1)) != 0) begin
        $error("Error: DATA_WIDTH must be a power of two from 64 to 512 (instance %m)");
        $finish;
    end
    if (MAX_RANKS < 2 || MAX_RANKS > 16) begin
        $error("Error: MAX_RANKS must be 2 to 16: a step number is 5 bits of the immediate (instance %m)");
        $finish;
    end
    if (MAX_SLOTS < 2 || MAX_SLOTS > 64 || (MAX_SLOTS & (MAX_SLOTS - 1)) != 0) begin
        $error("Error: MAX_SLOTS must be a power of two from 2 to 64 (instance %m)");
        $finish;
    end
end

`include "element_bytes.vh"

// ---- Registers ----

wire        attach_request, arm_request, start_request, abort_request, flush_config;
wire [2:0]  dtype_config;
wire [1:0]  op_config;
wire [6:0]  id_config;
wire [7:0]  rank_config, size_config, slots_config, data_receives, credit_receives;
wire [15:0] slot_bytes_config, qpn_next, qpn_prev;
wire [31:0] elements_config, buffer_low, buffer_high, slot_base_low, slot_base_high, remote_slot_low,
            remote_slot_high, remote_rkey_config, sq_next_low, sq_next_high, sq_prev_low, sq_prev_high,
            watchdog_config;
wire [3:0]  sq_next_log, sq_prev_log;

reg        busy, done, config_error, completion_error, sequence_error, watchdog_error, aborted, memory_error;
reg [31:0] error_count;
reg [7:0]  slot_peak;
reg [63:0] collective_cycles, reduce_scatter_bytes, all_gather_bytes, pieces_received, credit_stall_cycles,
           reducer_beats, credits_sent;

collective_engine_csr csr_inst (
    .clk(clk), .rst(rst),
    .s_axil_awready(s_axil_awready), .s_axil_awvalid(s_axil_awvalid), .s_axil_awaddr(s_axil_awaddr),
    .s_axil_awprot(s_axil_awprot), .s_axil_wready(s_axil_wready), .s_axil_wvalid(s_axil_wvalid),
    .s_axil_wdata(s_axil_wdata), .s_axil_wstrb(s_axil_wstrb), .s_axil_bready(s_axil_bready),
    .s_axil_bvalid(s_axil_bvalid), .s_axil_bresp(s_axil_bresp), .s_axil_arready(s_axil_arready),
    .s_axil_arvalid(s_axil_arvalid), .s_axil_araddr(s_axil_araddr), .s_axil_arprot(s_axil_arprot),
    .s_axil_rready(s_axil_rready), .s_axil_rvalid(s_axil_rvalid), .s_axil_rdata(s_axil_rdata),
    .s_axil_rresp(s_axil_rresp),
    .hwif_in_block_next_address(NEXT_BLOCK_ADDRESS),
    .hwif_in_capabilities_beat_bytes(BEAT_BYTES_32[7:0]),
    .hwif_in_capabilities_max_ranks(MAX_RANKS_32[7:0]),
    .hwif_in_capabilities_max_slots(MAX_SLOTS_32[7:0]),
    .hwif_out_ctrl_attach(attach_request), .hwif_out_ctrl_arm(arm_request), .hwif_out_ctrl_start(start_request),
    .hwif_out_ctrl_abort(abort_request),
    .hwif_out_config_dtype(dtype_config), .hwif_out_config_op(op_config),
    .hwif_out_config_flush_subnormals(flush_config), .hwif_out_config_collective_id(id_config),
    .hwif_out_ring_rank(rank_config), .hwif_out_ring_size(size_config),
    .hwif_out_length_elements(elements_config),
    .hwif_out_buffer_low_value(buffer_low), .hwif_out_buffer_high_value(buffer_high),
    .hwif_out_slot_base_low_value(slot_base_low), .hwif_out_slot_base_high_value(slot_base_high),
    .hwif_out_remote_slot_base_low_value(remote_slot_low), .hwif_out_remote_slot_base_high_value(remote_slot_high),
    .hwif_out_remote_slot_rkey_value(remote_rkey_config),
    .hwif_out_slots_count(slots_config), .hwif_out_slots_bytes(slot_bytes_config),
    .hwif_out_qps_next(qpn_next), .hwif_out_qps_prev(qpn_prev),
    .hwif_out_sq_next_low_value(sq_next_low), .hwif_out_sq_next_high_value(sq_next_high),
    .hwif_out_sq_prev_low_value(sq_prev_low), .hwif_out_sq_prev_high_value(sq_prev_high),
    .hwif_out_queue_sizes_sq_next_log(sq_next_log), .hwif_out_queue_sizes_sq_prev_log(sq_prev_log),
    .hwif_out_receives_data(data_receives), .hwif_out_receives_credit(credit_receives),
    .hwif_out_watchdog_cycles(watchdog_config),
    .hwif_in_status_busy(busy), .hwif_in_status_done(done), .hwif_in_status_config_error(config_error),
    .hwif_in_status_completion_error(completion_error), .hwif_in_status_sequence_error(sequence_error),
    .hwif_in_status_watchdog(watchdog_error), .hwif_in_status_aborted(aborted),
    .hwif_in_status_memory_error(memory_error),
    .hwif_in_errors_count(error_count), .hwif_in_slot_peak_pieces(slot_peak),
    .hwif_in_collective_cycles_value(collective_cycles),
    .hwif_in_reduce_scatter_bytes_value(reduce_scatter_bytes),
    .hwif_in_all_gather_bytes_value(all_gather_bytes),
    .hwif_in_pieces_received_value(pieces_received),
    .hwif_in_credit_stall_cycles_value(credit_stall_cycles),
    .hwif_in_reducer_beats_value(reducer_beats),
    .hwif_in_credits_sent_value(credits_sent),
    .hwif_in_slot_memory_base_value(SLOT_MEMORY_BASE), .hwif_in_slot_memory_bytes_bytes(SLOT_MEMORY_BYTES_32)
);

// ---- The collective's configuration, latched at arm ----

reg [2:0]            dtype;
reg [1:0]            op;
reg                  flush_subnormals;
reg [6:0]            collective_id;
reg [RANK_WIDTH-1:0] rank, ranks;
reg [31:0]           vector_bytes;
reg [63:0]           buffer, slot_base, remote_slot_base;
reg [31:0]           remote_rkey;
reg [SLOT_WIDTH-1:0] slots;
reg [15:0]           slot_bytes;
reg [31:0]           watchdog_limit;

wire [34:0] vector_bytes_wide = {3'd0, elements_config} * {32'd0, element_bytes(dtype_config)};
wire [34:0] vector_beats = (vector_bytes_wide + {3'd0, BEAT_BYTES_32 - 32'd1}) >> BEAT_BYTES_LOG2;
wire refuse_arm = dtype_config > 3'd6 || op_config > 2'd2
               || size_config < 8'd2 || {24'd0, size_config} > MAX_RANKS_32 || rank_config >= size_config
               || elements_config == 32'd0 || vector_bytes_wide[34:32] != 3'd0
               || vector_beats[34:COUNT_WIDTH] != 0
               || slots_config == 8'd0 || {24'd0, slots_config} > MAX_SLOTS_32
               || slot_bytes_config < 16'd64 || slot_bytes_config > 16'd32768
               || slot_bytes_config[BEAT_BYTES_LOG2-1:0] != 0
               || data_receives < slots_config || credit_receives == 8'd0;
wire arm = arm_request && !busy && !refuse_arm;

// ---- Chunks and the two walks over the pieces ----

wire                   chunks_ready;
wire [RANK_WIDTH-1:0]  send_chunk, receive_chunk;
wire [COUNT_WIDTH-1:0] send_chunk_start, send_chunk_beats, receive_chunk_start, receive_chunk_beats;

ring_chunks #(
    .MAX_RANKS(MAX_RANKS), .COUNT_WIDTH(COUNT_WIDTH), .RANK_WIDTH(RANK_WIDTH)
) chunks_inst (
    .clk(clk), .rst(rst),
    .compute(arm), .total_beats(vector_beats[COUNT_WIDTH-1:0]), .ranks(ranks),  // latched at arm
    .ready(chunks_ready),
    .lookup_a_chunk(send_chunk), .lookup_a_start(send_chunk_start), .lookup_a_beats(send_chunk_beats),
    .lookup_b_chunk(receive_chunk), .lookup_b_start(receive_chunk_start), .lookup_b_beats(receive_chunk_beats)
);

wire                send_advance, receive_advance;
wire [RANK_WIDTH:0] send_step, receive_step;
wire                send_all_gather, send_finished, send_piece_valid;
wire                receive_all_gather, receive_last_step, receive_finished, receive_piece_valid;
wire [31:0]         send_offset, receive_offset;
wire [15:0]         send_bytes, receive_bytes;
wire [23:0]         send_index, receive_index;

collective_pieces #(
    .RECEIVE_SIDE(0), .BEAT_BYTES(BEAT_BYTES), .RANK_WIDTH(RANK_WIDTH), .COUNT_WIDTH(COUNT_WIDTH)
) send_pieces_inst (
    .clk(clk), .rst(rst),
    .rank(rank), .ranks(ranks), .vector_bytes(vector_bytes), .slot_bytes(slot_bytes),
    .restart(arm), .table_ready(chunks_ready), .advance(send_advance),
    .chunk(send_chunk), .chunk_start_beats(send_chunk_start), .chunk_beats(send_chunk_beats),
    .step(send_step), .all_gather(send_all_gather), .last_step(), .finished(send_finished),
    .piece_valid(send_piece_valid), .piece_offset(send_offset), .piece_bytes(send_bytes), .index(send_index)
);

collective_pieces #(
    .RECEIVE_SIDE(1), .BEAT_BYTES(BEAT_BYTES), .RANK_WIDTH(RANK_WIDTH), .COUNT_WIDTH(COUNT_WIDTH)
) receive_pieces_inst (
    .clk(clk), .rst(rst),
    .rank(rank), .ranks(ranks), .vector_bytes(vector_bytes), .slot_bytes(slot_bytes),
    .restart(arm), .table_ready(chunks_ready), .advance(receive_advance),
    .chunk(receive_chunk), .chunk_start_beats(receive_chunk_start), .chunk_beats(receive_chunk_beats),
    .step(receive_step), .all_gather(receive_all_gather), .last_step(receive_last_step),
    .finished(receive_finished), .piece_valid(receive_piece_valid), .piece_offset(receive_offset),
    .piece_bytes(receive_bytes), .index(receive_index)
);

// ---- Run state ----

// armed: arrivals are taken; started: this rank sends; failing: an error stops new work, and busy
// ends once the work in progress is finished
reg  started, failing;
wire running = busy && !failing && chunks_ready;
wire processor_idle, poster_idle;
// An attach is taken only between collectives, with no WQE on its way
wire attach = attach_request && !busy && poster_idle;

// ---- Completions from the RDMA engine ----

localparam FIFO_WIDTH = $clog2(MAX_SLOTS) > 0 ? $clog2(MAX_SLOTS) : 1;
reg [31:0]          arrival_immediate [0:MAX_SLOTS-1];
reg [15:0]          arrival_bytes [0:MAX_SLOTS-1];
reg [FIFO_WIDTH:0]  arrival_write, arrival_read;
wire [FIFO_WIDTH:0] arrivals_waiting = arrival_write - arrival_read;
wire                arrival_pop;
reg [15:0]          arrivals;            // data pieces arrived this collective
reg [23:0]          freed_by_next;       // pieces the next rank has taken out of its slots
reg [15:0]          data_sends_completed, credit_sends_completed;
reg [15:0]          credit_arrivals;     // every credit, of any collective: each used a receive

assign s_completion_ready = 1'b1;
wire completion = s_completion_valid;
wire completion_failed = completion && s_completion_status != `RDMA_WC_SUCCESS;
wire is_receive_immediate = s_completion_opcode == `RDMA_WC_RECV_RDMA_WITH_IMM && s_completion_immediate_valid;
wire is_write_done = s_completion_opcode == `RDMA_WC_RDMA_WRITE;
wire on_prev = s_completion_qpn == {8'd0, qpn_prev};
wire on_next = s_completion_qpn == {8'd0, qpn_next};
wire is_credit = s_completion_immediate[IMM_CREDIT_BIT];
wire [6:0] immediate_id = s_completion_immediate[30:24];
wire credit_count_behind_sends = send_index - s_completion_immediate[23:0] < 24'h800000;
wire data_arrival = completion && !completion_failed && is_receive_immediate && on_prev && !is_credit;
wire credit_arrival = completion && !completion_failed && is_receive_immediate && on_next && is_credit;
wire data_unexpected = data_arrival && (!busy || immediate_id != collective_id
                                        || s_completion_immediate[IMM_PIECE_BITS-1:0] != arrivals[IMM_PIECE_BITS-1:0]
                                        || s_completion_byte_len[31:16] != 16'd0
                                        || {{8-FIFO_WIDTH-1{1'b0}}, arrivals_waiting} >= {{8-SLOT_WIDTH{1'b0}}, slots}
                                        || receive_finished);
wire completion_unexpected = completion && !completion_failed && !data_arrival && !credit_arrival
                          && !(is_write_done && (on_next || on_prev));

always @(posedge clk) begin
    if (data_arrival && !data_unexpected) begin
        arrival_immediate[arrival_write[FIFO_WIDTH-1:0]] <= s_completion_immediate;
        arrival_bytes[arrival_write[FIFO_WIDTH-1:0]] <= s_completion_byte_len[15:0];
        arrival_write <= arrival_write + 1'b1;
        arrivals <= arrivals + 1'b1;
    end
    if (arrival_pop) begin
        arrival_read <= arrival_read + 1'b1;
    end
    if (credit_arrival) begin
        credit_arrivals <= credit_arrivals + 1'b1;
        // A credit of another collective (one that came late) grants nothing now, nor does a count
        // ahead of the pieces sent
        if (immediate_id == collective_id && busy && credit_count_behind_sends) begin
            freed_by_next <= s_completion_immediate[23:0];
        end
    end
    // A completion beyond the WQEs posted (a late one of a QP since set up again) counts nothing
    if (completion && is_write_done && on_next && data_sends_completed != posted_next) begin
        data_sends_completed <= data_sends_completed + 1'b1;
    end
    if (completion && is_write_done && on_prev && credit_sends_completed != posted_prev) begin
        credit_sends_completed <= credit_sends_completed + 1'b1;
    end
    if (arm) begin
        arrival_write <= {FIFO_WIDTH+1{1'b0}};
        arrival_read <= {FIFO_WIDTH+1{1'b0}};
        arrivals <= 16'd0;
        freed_by_next <= 24'd0;
    end
    if (attach || rst) begin
        data_sends_completed <= 16'd0;
        credit_sends_completed <= 16'd0;
        credit_arrivals <= 16'd0;
    end
    if (rst) begin
        arrival_write <= {FIFO_WIDTH+1{1'b0}};
        arrival_read <= {FIFO_WIDTH+1{1'b0}};
        arrivals <= 16'd0;
        freed_by_next <= 24'd0;
    end
end

wire [31:0] head_immediate = arrival_immediate[arrival_read[FIFO_WIDTH-1:0]];
wire [15:0] head_bytes = arrival_bytes[arrival_read[FIFO_WIDTH-1:0]];

// ---- Taking pieces out of the slots: reduce or copy into the vector ----

// Node-memory ports: read 0 the slot, read 1 the local piece; write 0 the vector, write 1 WQEs
wire [2*64-1:0]         read_cmd_addr;
wire [2*16-1:0]         read_cmd_len;
wire [1:0]              read_cmd_valid, read_cmd_ready;
wire [2*DATA_WIDTH-1:0] read_tdata;
wire [2*KEEP_WIDTH-1:0] read_tkeep;
wire [1:0]              read_tvalid, read_tready, read_tlast, read_tuser;
wire [2*64-1:0]         write_cmd_addr;
wire [2*16-1:0]         write_cmd_len;
wire [1:0]              write_cmd_valid, write_cmd_ready;
wire [2*DATA_WIDTH-1:0] write_tdata;
wire [2*KEEP_WIDTH-1:0] write_tkeep;
wire [1:0]              write_tvalid, write_tready, write_tlast;
wire [1:0]              write_status_valid, write_status_error;

localparam [1:0] P_IDLE = 2'd0, P_MOVE = 2'd1, P_DONE = 2'd2;
reg [1:0]            processor_state;
reg                  piece_reduces;
reg [SLOT_WIDTH-1:0] receive_slot;
reg                  slot_cmd_pending, local_cmd_pending, result_cmd_pending, piece_failed;
reg [63:0]           slot_cmd_addr, local_cmd_addr, result_cmd_addr;
reg [15:0]           piece_cmd_len;
reg [23:0]           processed;      // pieces taken this collective
reg [23:0]           forwardable;    // of those, the ones the sender sends on

// The immediate a piece of this collective at the receive walk's position carries
// (a step is below 2 x 16 - 2, so it fits its 5 bits)
wire [31:0] receive_step_wide = {{31-RANK_WIDTH{1'b0}}, receive_step};
wire [31:0] expected_immediate = {1'b0, collective_id, dtype, op, receive_step_wide[IMM_STEP_BITS-1:0],
                                  receive_index[IMM_PIECE_BITS-1:0]};
wire head_matches = head_immediate == expected_immediate && head_bytes == receive_bytes;
wire take_piece = running && processor_state == P_IDLE && arrivals_waiting != 0 && receive_piece_valid;
assign processor_idle = processor_state == P_IDLE;
assign arrival_pop = processor_state == P_DONE;
assign receive_advance = processor_state == P_DONE;
wire piece_sequence_error = take_piece && !head_matches;

assign read_cmd_addr = {local_cmd_addr, slot_cmd_addr};
assign read_cmd_len = {piece_cmd_len, piece_cmd_len};
assign read_cmd_valid = {local_cmd_pending, slot_cmd_pending};
assign write_cmd_addr[0 +: 64] = result_cmd_addr;
assign write_cmd_len[0 +: 16] = piece_cmd_len;
assign write_cmd_valid[0] = result_cmd_pending;

always @(posedge clk) begin
    case (processor_state)
        P_IDLE: begin
            if (take_piece && head_matches) begin
                piece_reduces <= !receive_all_gather;
                slot_cmd_addr <= slot_base + {48'd0, slot_bytes} * {{64-SLOT_WIDTH{1'b0}}, receive_slot};
                local_cmd_addr <= buffer + {32'd0, receive_offset};
                result_cmd_addr <= buffer + {32'd0, receive_offset};
                piece_cmd_len <= receive_bytes;
                slot_cmd_pending <= 1'b1;
                local_cmd_pending <= !receive_all_gather;
                result_cmd_pending <= 1'b1;
                piece_failed <= 1'b0;
                processor_state <= P_MOVE;
            end
        end
        P_MOVE: begin
            if (read_cmd_ready[0]) slot_cmd_pending <= 1'b0;
            if (read_cmd_ready[1]) local_cmd_pending <= 1'b0;
            if (write_cmd_ready[0]) result_cmd_pending <= 1'b0;
            if (read_tvalid[0] && read_tready[0] && read_tlast[0] && read_tuser[0]) piece_failed <= 1'b1;
            if (read_tvalid[1] && read_tready[1] && read_tlast[1] && read_tuser[1]) piece_failed <= 1'b1;
            if (write_status_valid[0]) begin
                piece_failed <= piece_failed || write_status_error[0];
                processor_state <= P_DONE;
            end
        end
        default: begin  // P_DONE: the piece is in the vector
            receive_slot <= receive_slot == slots - 1'b1 ? {SLOT_WIDTH{1'b0}} : receive_slot + 1'b1;
            processed <= processed + 1'b1;
            if (!receive_last_step) forwardable <= forwardable + 1'b1;
            processor_state <= P_IDLE;
        end
    endcase
    if (arm) begin
        receive_slot <= {SLOT_WIDTH{1'b0}};
        processed <= 24'd0;
        forwardable <= 24'd0;
    end
    if (rst) begin
        processor_state <= P_IDLE;
        piece_reduces <= 1'b0;
        slot_cmd_pending <= 1'b0;
        local_cmd_pending <= 1'b0;
        result_cmd_pending <= 1'b0;
        piece_failed <= 1'b0;
        receive_slot <= {SLOT_WIDTH{1'b0}};
        processed <= 24'd0;
        forwardable <= 24'd0;
    end
end

// Reduce-scatter: slot (incoming) op local into the vector; all-gather: the slot into the vector
wire [DATA_WIDTH-1:0] reduced_tdata;
wire [KEEP_WIDTH-1:0] reduced_tkeep;
wire                  reduced_tvalid, reduced_tlast, reduced_tuser;
wire                  reducer_incoming_ready, reducer_local_ready;
wire                  reducer_config_error;

allreduce_reducer #(
    .DATA_WIDTH(DATA_WIDTH)
) reducer_inst (
    .clk(clk), .rst(rst),
    .dtype(dtype), .op(op), .flush_subnormals(flush_subnormals), .config_error(reducer_config_error),
    .s_axis_incoming_tdata(read_tdata[0 +: DATA_WIDTH]), .s_axis_incoming_tkeep(read_tkeep[0 +: KEEP_WIDTH]),
    .s_axis_incoming_tvalid(read_tvalid[0] && piece_reduces), .s_axis_incoming_tready(reducer_incoming_ready),
    .s_axis_incoming_tlast(read_tlast[0]),
    .s_axis_local_tdata(read_tdata[DATA_WIDTH +: DATA_WIDTH]), .s_axis_local_tkeep(read_tkeep[KEEP_WIDTH +: KEEP_WIDTH]),
    .s_axis_local_tvalid(read_tvalid[1]), .s_axis_local_tready(reducer_local_ready),
    .s_axis_local_tlast(read_tlast[1]),
    .m_axis_tdata(reduced_tdata), .m_axis_tkeep(reduced_tkeep), .m_axis_tvalid(reduced_tvalid),
    .m_axis_tready(write_tready[0] && piece_reduces), .m_axis_tlast(reduced_tlast), .m_axis_tuser(reduced_tuser),
    .event_starved(), .event_nan_elements(), .event_overflow_elements(), .event_length_mismatch(),
    .event_keep_error(), .event_dropped_beat()
);

assign read_tready[0] = piece_reduces ? reducer_incoming_ready : write_tready[0];
assign read_tready[1] = reducer_local_ready;
assign write_tdata[0 +: DATA_WIDTH] = piece_reduces ? reduced_tdata : read_tdata[0 +: DATA_WIDTH];
assign write_tkeep[0 +: KEEP_WIDTH] = piece_reduces ? reduced_tkeep : read_tkeep[0 +: KEEP_WIDTH];
assign write_tvalid[0] = piece_reduces ? reduced_tvalid : read_tvalid[0];
assign write_tlast[0] = piece_reduces ? reduced_tlast : read_tlast[0];
wire reduced_malformed = reduced_tvalid && write_tready[0] && piece_reduces && reduced_tlast && reduced_tuser;

// ---- Receive doorbells: re-post each receive used, data on QP prev and credits on QP next ----

reg [15:0] prev_receives_rung, next_receives_rung;
reg [15:0] prev_receives_taken;  // every data piece taken, across collectives
wire [15:0] prev_receives_wanted = {8'd0, data_receives} + prev_receives_taken;
wire [15:0] next_receives_wanted = {8'd0, credit_receives} + credit_arrivals;
reg         attached;

always @(posedge clk) begin
    if (processor_state == P_DONE) begin
        prev_receives_taken <= prev_receives_taken + 1'b1;
    end
    if (m_rq_doorbell_valid) begin
        if (m_rq_doorbell_ready) begin
            m_rq_doorbell_valid <= 1'b0;
            if (m_rq_doorbell_qpn == qpn_prev) begin
                prev_receives_rung <= m_rq_doorbell_producer_index;
            end else begin
                next_receives_rung <= m_rq_doorbell_producer_index;
            end
        end
    end else if (attached && prev_receives_rung != prev_receives_wanted) begin
        m_rq_doorbell_valid <= 1'b1;
        m_rq_doorbell_qpn <= qpn_prev;
        m_rq_doorbell_producer_index <= prev_receives_wanted;
    end else if (attached && next_receives_rung != next_receives_wanted) begin
        m_rq_doorbell_valid <= 1'b1;
        m_rq_doorbell_qpn <= qpn_next;
        m_rq_doorbell_producer_index <= next_receives_wanted;
    end
    if (attach) begin
        attached <= 1'b1;
        prev_receives_rung <= 16'd0;
        next_receives_rung <= 16'd0;
        prev_receives_taken <= 16'd0;
    end
    if (rst) begin
        attached <= 1'b0;
        m_rq_doorbell_valid <= 1'b0;
        prev_receives_rung <= 16'd0;
        next_receives_rung <= 16'd0;
        prev_receives_taken <= 16'd0;
    end
end

// ---- Sending: credits first (they free the previous rank), then data ----

reg  [23:0]          credit_granted;   // the count the last credit carried
reg  [SLOT_WIDTH-1:0] send_slot;
reg  [23:0]          forwarded;        // pieces of step 1 on sent
wire                 credit_due = running && credit_granted != processed && prev_receives_rung == prev_receives_wanted
                                  && !m_rq_doorbell_valid;
wire                 data_ready = running && started && send_piece_valid
                                  && (send_step == {RANK_WIDTH+1{1'b0}} || forwarded != forwardable);
wire                 slot_free = send_index - freed_by_next < {{24-SLOT_WIDTH{1'b0}}, slots};
wire                 data_due = data_ready && slot_free;

wire        wqe_valid = credit_due || data_due;
wire        wqe_ready;
wire        wqe_is_credit = credit_due;
wire [31:0] send_step_wide = {{31-RANK_WIDTH{1'b0}}, send_step};
wire [31:0] data_immediate = {1'b0, collective_id, dtype, op, send_step_wide[IMM_STEP_BITS-1:0],
                               send_index[IMM_PIECE_BITS-1:0]};
wire [31:0] credit_immediate = {1'b1, collective_id, processed};
wire        wqe_taken = wqe_valid && wqe_ready;
assign      send_advance = wqe_taken && !wqe_is_credit;
wire [15:0] posted_next, posted_prev;
wire        poster_memory_error;

always @(posedge clk) begin
    if (wqe_taken && wqe_is_credit) begin
        credit_granted <= processed;
    end
    if (send_advance) begin
        send_slot <= send_slot == slots - 1'b1 ? {SLOT_WIDTH{1'b0}} : send_slot + 1'b1;
        if (send_step != {RANK_WIDTH+1{1'b0}}) forwarded <= forwarded + 1'b1;
    end
    if (arm || rst) begin
        credit_granted <= 24'd0;
        send_slot <= {SLOT_WIDTH{1'b0}};
        forwarded <= 24'd0;
    end
end

collective_wqe_poster #(
    .DATA_WIDTH(DATA_WIDTH)
) poster_inst (
    .clk(clk), .rst(rst),
    .attach(attach), .qpn_next(qpn_next), .qpn_prev(qpn_prev),
    .sq_base_next({sq_next_high, sq_next_low}), .sq_base_prev({sq_prev_high, sq_prev_low}),
    .sq_log_size_next(sq_next_log), .sq_log_size_prev(sq_prev_log),
    .completed_next(data_sends_completed), .completed_prev(credit_sends_completed),
    .s_wqe_valid(wqe_valid), .s_wqe_ready(wqe_ready), .s_wqe_qp_prev(wqe_is_credit),
    .s_wqe_opcode(`RDMA_WQE_WRITE_IMM),
    .s_wqe_immediate(wqe_is_credit ? credit_immediate : data_immediate),
    .s_wqe_wr_id(wqe_is_credit ? {40'd0, processed} : {40'd0, send_index}),
    .s_wqe_local_address(wqe_is_credit ? 64'd0 : buffer + {32'd0, send_offset}),
    .s_wqe_length(wqe_is_credit ? 32'd0 : {16'd0, send_bytes}),
    .s_wqe_rkey(wqe_is_credit ? 32'd0 : remote_rkey),
    .s_wqe_remote_address(wqe_is_credit ? 64'd0
                          : remote_slot_base + {48'd0, slot_bytes} * {{64-SLOT_WIDTH{1'b0}}, send_slot}),
    .m_write_cmd_addr(write_cmd_addr[64 +: 64]), .m_write_cmd_len(write_cmd_len[16 +: 16]),
    .m_write_cmd_valid(write_cmd_valid[1]), .m_write_cmd_ready(write_cmd_ready[1]),
    .m_write_axis_tdata(write_tdata[DATA_WIDTH +: DATA_WIDTH]), .m_write_axis_tkeep(write_tkeep[KEEP_WIDTH +: KEEP_WIDTH]),
    .m_write_axis_tvalid(write_tvalid[1]), .m_write_axis_tready(write_tready[1]), .m_write_axis_tlast(write_tlast[1]),
    .write_status_valid(write_status_valid[1]), .write_status_error(write_status_error[1]),
    .m_doorbell_valid(m_sq_doorbell_valid), .m_doorbell_ready(m_sq_doorbell_ready),
    .m_doorbell_qpn(m_sq_doorbell_qpn), .m_doorbell_producer_index(m_sq_doorbell_producer_index),
    .posted_next(posted_next), .posted_prev(posted_prev), .memory_error(poster_memory_error),
    .idle(poster_idle)
);

// ---- Finishing, failing and the watchdog ----

wire all_sent_completed = posted_next == data_sends_completed && posted_prev == credit_sends_completed;
// Done also waits for the next rank's last credit, so that no credit of this collective can come
// after the next one is armed
wire finished = running && started && receive_finished && send_finished && credit_granted == processed
             && all_sent_completed && processor_idle && poster_idle && !m_rq_doorbell_valid
             && freed_by_next == send_index;
reg  [31:0] quiet_cycles;
wire progress = completion || wqe_taken || processor_state == P_DONE || (write_tvalid[0] && write_tready[0])
             || start_request;
wire watchdog_fires = running && watchdog_limit != 32'd0 && quiet_cycles >= watchdog_limit;
wire fault_completion = completion_failed && (on_next || on_prev);
wire fault_sequence = (data_unexpected || piece_sequence_error || completion_unexpected || reduced_malformed) && busy;
reg  poster_memory_error_seen;
wire fault_memory = (processor_state == P_DONE && piece_failed) || (poster_memory_error && !poster_memory_error_seen);
wire fault = busy && (fault_completion || fault_sequence || fault_memory || watchdog_fires || abort_request);

always @(posedge clk) begin
    poster_memory_error_seen <= poster_memory_error && !rst;
    quiet_cycles <= progress ? 32'd0 : quiet_cycles + 1'b1;
    if (busy && !done) collective_cycles <= collective_cycles + (started ? 64'd1 : 64'd0);
    if (data_ready && !slot_free) credit_stall_cycles <= credit_stall_cycles + 1'b1;
    if (reduced_tvalid && write_tready[0] && piece_reduces) reducer_beats <= reducer_beats + 1'b1;
    if (processor_state == P_DONE) pieces_received <= pieces_received + 1'b1;
    if (wqe_taken && wqe_is_credit) credits_sent <= credits_sent + 1'b1;
    if (send_advance && !send_all_gather) reduce_scatter_bytes <= reduce_scatter_bytes + {48'd0, send_bytes};
    if (send_advance && send_all_gather) all_gather_bytes <= all_gather_bytes + {48'd0, send_bytes};
    if ({{8-FIFO_WIDTH-1{1'b0}}, arrivals_waiting} > slot_peak) slot_peak <= {{8-FIFO_WIDTH-1{1'b0}}, arrivals_waiting};
    if (start_request && busy) started <= 1'b1;
    if (fault) begin
        failing <= 1'b1;
        completion_error <= completion_error || fault_completion;
        sequence_error <= sequence_error || fault_sequence;
        memory_error <= memory_error || fault_memory;
        watchdog_error <= watchdog_error || watchdog_fires;
        aborted <= aborted || abort_request;
        // One error event per failed collective, however long its cause lasts
        if (!failing) error_count <= error_count + 1'b1;
    end
    if (failing && processor_idle && poster_idle) begin
        busy <= 1'b0;
        failing <= 1'b0;
    end
    if (finished && !fault) begin
        busy <= 1'b0;
        done <= 1'b1;
    end
    if (arm_request && !busy) begin
        config_error <= refuse_arm;
        error_count <= error_count + {31'd0, refuse_arm};
    end
    if (arm) begin
        busy <= 1'b1;
        done <= 1'b0;
        started <= 1'b0;
        failing <= 1'b0;
        completion_error <= 1'b0;
        sequence_error <= 1'b0;
        watchdog_error <= 1'b0;
        aborted <= 1'b0;
        memory_error <= 1'b0;
        quiet_cycles <= 32'd0;
        dtype <= dtype_config;
        op <= op_config;
        flush_subnormals <= flush_config;
        collective_id <= id_config;
        rank <= rank_config[RANK_WIDTH-1:0];
        ranks <= size_config[RANK_WIDTH-1:0];
        vector_bytes <= vector_bytes_wide[31:0];
        buffer <= {buffer_high, buffer_low};
        slot_base <= {slot_base_high, slot_base_low};
        remote_slot_base <= {remote_slot_high, remote_slot_low};
        remote_rkey <= remote_rkey_config;
        slots <= slots_config[SLOT_WIDTH-1:0];
        slot_bytes <= slot_bytes_config;
        watchdog_limit <= watchdog_config;
        collective_cycles <= 64'd0;
        reduce_scatter_bytes <= 64'd0;
        all_gather_bytes <= 64'd0;
        pieces_received <= 64'd0;
        credit_stall_cycles <= 64'd0;
        reducer_beats <= 64'd0;
        credits_sent <= 64'd0;
        slot_peak <= 8'd0;
    end
    if (rst) begin
        busy <= 1'b0;
        done <= 1'b0;
        started <= 1'b0;
        failing <= 1'b0;
        config_error <= 1'b0;
        completion_error <= 1'b0;
        sequence_error <= 1'b0;
        watchdog_error <= 1'b0;
        aborted <= 1'b0;
        memory_error <= 1'b0;
        error_count <= 32'd0;
        quiet_cycles <= 32'd0;
        collective_cycles <= 64'd0;
        reduce_scatter_bytes <= 64'd0;
        all_gather_bytes <= 64'd0;
        pieces_received <= 64'd0;
        credit_stall_cycles <= 64'd0;
        reducer_beats <= 64'd0;
        credits_sent <= 64'd0;
        slot_peak <= 8'd0;
        rank <= {RANK_WIDTH{1'b0}};
        ranks <= 2;
        dtype <= 3'd0;
        op <= 2'd0;
        flush_subnormals <= 1'b0;
        collective_id <= 7'd0;
        vector_bytes <= 32'd0;
        slots <= 1;
        slot_bytes <= 16'd64;
    end
end

// ---- Node memory ----

rdma_host_memory #(
    .DATA_WIDTH(DATA_WIDTH), .WRITE_PORTS(2), .READ_PORTS(2), .PAYLOAD_READ_PORTS(2), .AXI_ID_WIDTH(4)
) memory_inst (
    .clk(clk), .rst(rst),
    .s_write_cmd_addr(write_cmd_addr), .s_write_cmd_len(write_cmd_len), .s_write_cmd_valid(write_cmd_valid),
    .s_write_cmd_ready(write_cmd_ready), .s_write_axis_tdata(write_tdata), .s_write_axis_tkeep(write_tkeep),
    .s_write_axis_tvalid(write_tvalid), .s_write_axis_tready(write_tready), .s_write_axis_tlast(write_tlast),
    .write_status_valid(write_status_valid), .write_status_error(write_status_error),
    .s_read_cmd_addr(read_cmd_addr), .s_read_cmd_len(read_cmd_len), .s_read_cmd_valid(read_cmd_valid),
    .s_read_cmd_ready(read_cmd_ready), .m_read_axis_tdata(read_tdata), .m_read_axis_tkeep(read_tkeep),
    .m_read_axis_tvalid(read_tvalid), .m_read_axis_tready(read_tready), .m_read_axis_tlast(read_tlast),
    .m_read_axis_tuser(read_tuser),
    .m_axi_awid(m_axi_awid), .m_axi_awaddr(m_axi_awaddr), .m_axi_awlen(m_axi_awlen), .m_axi_awsize(m_axi_awsize),
    .m_axi_awburst(m_axi_awburst), .m_axi_awlock(m_axi_awlock), .m_axi_awcache(m_axi_awcache),
    .m_axi_awprot(m_axi_awprot), .m_axi_awvalid(m_axi_awvalid), .m_axi_awready(m_axi_awready),
    .m_axi_wdata(m_axi_wdata), .m_axi_wstrb(m_axi_wstrb), .m_axi_wlast(m_axi_wlast), .m_axi_wvalid(m_axi_wvalid),
    .m_axi_wready(m_axi_wready), .m_axi_bid(m_axi_bid), .m_axi_bresp(m_axi_bresp), .m_axi_bvalid(m_axi_bvalid),
    .m_axi_bready(m_axi_bready),
    .m_axi_arid(m_axi_arid), .m_axi_araddr(m_axi_araddr), .m_axi_arlen(m_axi_arlen), .m_axi_arsize(m_axi_arsize),
    .m_axi_arburst(m_axi_arburst), .m_axi_arlock(m_axi_arlock), .m_axi_arcache(m_axi_arcache),
    .m_axi_arprot(m_axi_arprot), .m_axi_arvalid(m_axi_arvalid), .m_axi_arready(m_axi_arready),
    .m_axi_rid(m_axi_rid), .m_axi_rdata(m_axi_rdata), .m_axi_rresp(m_axi_rresp), .m_axi_rlast(m_axi_rlast),
    .m_axi_rvalid(m_axi_rvalid), .m_axi_rready(m_axi_rready)
);

endmodule

`resetall
