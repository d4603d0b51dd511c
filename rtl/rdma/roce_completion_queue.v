// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Completion queue writer: completion entries into a ring in host memory, with an owner bit per pass
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "rdma_host_interface.vh"

// The ring holds 2^log_size entries at a base address in host memory. The host
// zeroes it, then polls the entry at its consumer index until the entry's owner bit equals the
// pass bit it expects (1 on the first pass over the ring, 0 on the second, and so on), and
// hands entries back by writing its free-running consumer index. An entry the host has not
// handed back is never overwritten: with the ring full, the next completion waits.
//
// The entry holds the fields of ibverbs' struct ibv_wc that RC uses and the owner bit, laid out
// as rtl/rdma/host_interface.toml says (the generated rdma_host_interface.vh); its other bytes
// are zero.
module roce_completion_queue #(
    // Width of the data stream to the DMA writer in bits (64 to 512, a power of two)
    parameter DATA_WIDTH = 64
) (
    input  wire                    clk,
    input  wire                    rst,

    input  wire [63:0]             cq_base,
    input  wire [3:0]              cq_log_size,       // 2^log_size entries: 1 to 15
    input  wire [15:0]             cq_consumer_index, // free running, written by the host
    input  wire                    cq_restart,        // the host set the ring up again: start at entry 0
    output reg  [15:0]             cq_producer_index, // free running

    input  wire                    s_cqe_valid,
    output wire                    s_cqe_ready,
    input  wire [63:0]             s_cqe_wr_id,
    input  wire [31:0]             s_cqe_byte_len,
    input  wire [31:0]             s_cqe_immediate,
    input  wire                    s_cqe_immediate_valid,
    input  wire [23:0]             s_cqe_qpn,
    input  wire [7:0]              s_cqe_opcode,
    input  wire [7:0]              s_cqe_status,

    // To the DMA writer: one 32-byte command and frame per entry
    output reg  [63:0]             m_write_cmd_addr,
    output wire [15:0]             m_write_cmd_len,
    output reg                     m_write_cmd_valid,
    input  wire                    m_write_cmd_ready,
    output wire [DATA_WIDTH-1:0]   m_axis_tdata,
    output wire [DATA_WIDTH/8-1:0] m_axis_tkeep,
    output wire                    m_axis_tvalid,
    input  wire                    m_axis_tready,
    output wire                    m_axis_tlast,

    // The ring is full: completions wait for the host
    output wire                    full
);

localparam ENTRY_BYTES = `RDMA_COMPLETION_BYTES;
// Entries sit at whole multiples of their size in the ring
localparam ENTRY_ADDRESS_SHIFT = $clog2(ENTRY_BYTES);
localparam KEEP_WIDTH = DATA_WIDTH / 8;
localparam BEATS = KEEP_WIDTH >= ENTRY_BYTES ? 1 : ENTRY_BYTES / KEEP_WIDTH;
localparam BEAT_INDEX_WIDTH = BEATS > 1 ? $clog2(BEATS) : 1;
localparam LANE_BITS = KEEP_WIDTH >= ENTRY_BYTES ? ENTRY_BYTES * 8 : DATA_WIDTH;

initial begin
    if (DATA_WIDTH < 64 || (DATA_WIDTH & (DATA_WIDTH - 1)) != 0) begin
        $error("Error: DATA_WIDTH must be a power of two, 64 or more (instance %m)");
        $finish;
    end
    if ((ENTRY_BYTES & (ENTRY_BYTES - 1)) != 0) begin
        $error("Error: the completion entry of host_interface.toml must be a power of two bytes (instance %m)");
        $finish;
    end
end

wire [15:0] ring_entries = 16'd1 << cq_log_size;
wire [15:0] ring_mask = ring_entries - 16'd1;
assign full = cq_producer_index - cq_consumer_index >= ring_entries;

reg [ENTRY_BYTES*8-1:0]  entry;
reg                      sending;
reg [BEAT_INDEX_WIDTH-1:0] beat;

assign s_cqe_ready = !sending && !m_write_cmd_valid && !full && !cq_restart;
assign m_write_cmd_len = ENTRY_BYTES;
assign m_axis_tvalid = sending;
assign m_axis_tlast = {{(32-BEAT_INDEX_WIDTH){1'b0}}, beat} == BEATS - 1;
assign m_axis_tdata = {{(DATA_WIDTH - LANE_BITS){1'b0}}, entry[beat * LANE_BITS +: LANE_BITS]};
assign m_axis_tkeep = {{(KEEP_WIDTH - LANE_BITS / 8){1'b0}}, {(LANE_BITS / 8){1'b1}}};

// The pass over the ring this entry is written in: its owner bit is 1 on even passes
wire pass_is_odd = |(cq_producer_index & ring_entries);

reg [ENTRY_BYTES*8-1:0] entry_next;
always @* begin
    entry_next = {(ENTRY_BYTES*8){1'b0}};
    entry_next[`RDMA_COMPLETION_WR_ID_LSB +: `RDMA_COMPLETION_WR_ID_WIDTH] = s_cqe_wr_id;
    entry_next[`RDMA_COMPLETION_BYTE_LEN_LSB +: `RDMA_COMPLETION_BYTE_LEN_WIDTH] = s_cqe_byte_len;
    entry_next[`RDMA_COMPLETION_IMMEDIATE_LSB +: `RDMA_COMPLETION_IMMEDIATE_WIDTH] = s_cqe_immediate;
    entry_next[`RDMA_COMPLETION_QPN_LSB +: `RDMA_COMPLETION_QPN_WIDTH] = s_cqe_qpn;
    entry_next[`RDMA_COMPLETION_OPCODE_LSB +: `RDMA_COMPLETION_OPCODE_WIDTH] = s_cqe_opcode;
    entry_next[`RDMA_COMPLETION_STATUS_LSB +: `RDMA_COMPLETION_STATUS_WIDTH] = s_cqe_status;
    entry_next[`RDMA_COMPLETION_IMMEDIATE_VALID_LSB +: `RDMA_COMPLETION_IMMEDIATE_VALID_WIDTH] = s_cqe_immediate_valid;
    entry_next[`RDMA_COMPLETION_OWNER_LSB +: `RDMA_COMPLETION_OWNER_WIDTH] = !pass_is_odd;
end

always @(posedge clk) begin
    if (m_write_cmd_valid && m_write_cmd_ready) begin
        m_write_cmd_valid <= 1'b0;
    end
    if (sending && m_axis_tready) begin
        beat <= beat + 1'b1;
        if (m_axis_tlast) begin
            sending <= 1'b0;
            beat <= {BEAT_INDEX_WIDTH{1'b0}};
        end
    end
    if (s_cqe_valid && s_cqe_ready) begin
        entry <= entry_next;
        m_write_cmd_addr <= cq_base + ({48'd0, cq_producer_index & ring_mask} << ENTRY_ADDRESS_SHIFT);
        m_write_cmd_valid <= 1'b1;
        sending <= 1'b1;
        cq_producer_index <= cq_producer_index + 16'd1;
    end
    if (rst || cq_restart) begin
        cq_producer_index <= 16'd0;
    end
    if (rst) begin
        m_write_cmd_valid <= 1'b0;
        sending <= 1'b0;
        beat <= {BEAT_INDEX_WIDTH{1'b0}};
    end
end

endmodule

`resetall
