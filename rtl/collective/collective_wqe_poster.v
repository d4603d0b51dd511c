// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Posts the collective engine's send WQEs: writes each into its QP's send queue in node memory, then rings the doorbell port
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "rdma_host_interface.vh"

// Two QPs, next (0) and prev (1), each with a send queue of 2^log_size 64-byte WQEs in node
// memory, laid out as rtl/rdma/host_interface.toml says. A WQE is written whole through the DMA
// write port; only once its write response is in is the RDMA engine's send doorbell rung with
// the new producer index, so the engine never fetches a WQE still on its way. A queue is full
// while 2^log_size of its WQEs have not completed (send completions counted by the caller).
module collective_wqe_poster #(
    // Width of the memory bus in bits (64 to 512, a power of two)
    parameter DATA_WIDTH = 64
) (
    input  wire                    clk,
    input  wire                    rst,

    // The QPs were created: both queues empty, producer indices 0
    input  wire                    attach,
    input  wire [15:0]             qpn_next,
    input  wire [15:0]             qpn_prev,
    input  wire [63:0]             sq_base_next,
    input  wire [63:0]             sq_base_prev,
    input  wire [3:0]              sq_log_size_next,
    input  wire [3:0]              sq_log_size_prev,
    // Free-running counts of send completions of each QP
    input  wire [15:0]             completed_next,
    input  wire [15:0]             completed_prev,

    input  wire                    s_wqe_valid,
    output wire                    s_wqe_ready,
    input  wire                    s_wqe_qp_prev,   // 0: QP next, 1: QP prev
    input  wire [7:0]              s_wqe_opcode,
    input  wire [31:0]             s_wqe_immediate,
    input  wire [63:0]             s_wqe_wr_id,
    input  wire [63:0]             s_wqe_local_address,
    input  wire [31:0]             s_wqe_length,
    input  wire [31:0]             s_wqe_rkey,
    input  wire [63:0]             s_wqe_remote_address,

    // To a DMA write port
    output reg  [63:0]             m_write_cmd_addr,
    output wire [15:0]             m_write_cmd_len,
    output reg                     m_write_cmd_valid,
    input  wire                    m_write_cmd_ready,
    output wire [DATA_WIDTH-1:0]   m_write_axis_tdata,
    output wire [DATA_WIDTH/8-1:0] m_write_axis_tkeep,
    output wire                    m_write_axis_tvalid,
    input  wire                    m_write_axis_tready,
    output wire                    m_write_axis_tlast,
    input  wire                    write_status_valid,
    input  wire                    write_status_error,

    // To the RDMA engine's send doorbell port
    output reg                     m_doorbell_valid,
    input  wire                    m_doorbell_ready,
    output reg  [15:0]             m_doorbell_qpn,
    output reg  [15:0]             m_doorbell_producer_index,

    // Free-running counts of WQEs posted (doorbell taken) on each QP
    output reg  [15:0]             posted_next,
    output reg  [15:0]             posted_prev,
    // A WQE's write failed (sticky until attach)
    output reg                     memory_error,
    // No WQE on its way
    output wire                    idle
);

localparam WQE_BYTES = `RDMA_SEND_WQE_BYTES;
localparam WQE_BITS = WQE_BYTES * 8;
localparam BEATS = WQE_BITS / DATA_WIDTH;
localparam BEAT_WIDTH = BEATS > 1 ? $clog2(BEATS) : 1;

initial begin
    if (DATA_WIDTH < 64 || DATA_WIDTH > WQE_BITS || (DATA_WIDTH & (DATA_WIDTH - 1)) != 0) begin
        $error("Error: DATA_WIDTH must be a power of two from 64 to %0d (instance %m)", WQE_BITS);
        $finish;
    end
end

localparam [1:0] S_IDLE = 2'd0, S_WRITE = 2'd1, S_STATUS = 2'd2, S_DOORBELL = 2'd3;
reg [1:0] state;

reg [WQE_BITS-1:0]   wqe;
reg [BEAT_WIDTH-1:0] beat;
reg                  sending;
reg                  wqe_qp_prev;

wire [15:0] in_flight_next = posted_next - completed_next;
wire [15:0] in_flight_prev = posted_prev - completed_prev;
wire        room_next = in_flight_next < (16'd1 << sq_log_size_next);
wire        room_prev = in_flight_prev < (16'd1 << sq_log_size_prev);
assign s_wqe_ready = state == S_IDLE && !attach && (s_wqe_qp_prev ? room_prev : room_next);

assign idle = state == S_IDLE;
assign m_write_cmd_len = WQE_BYTES;
assign m_write_axis_tdata = wqe[beat * DATA_WIDTH +: DATA_WIDTH];
assign m_write_axis_tkeep = {DATA_WIDTH/8{1'b1}};
assign m_write_axis_tvalid = sending;
localparam [31:0] LAST_BEAT_32 = BEATS - 1;
localparam [BEAT_WIDTH-1:0] LAST_BEAT = LAST_BEAT_32[BEAT_WIDTH-1:0];
assign m_write_axis_tlast = beat == LAST_BEAT;

function [WQE_BITS-1:0] pack(input [7:0] opcode, input [31:0] immediate, input [63:0] wr_id,
                             input [63:0] local_address, input [31:0] length, input [31:0] rkey,
                             input [63:0] remote_address);
    begin
        pack = {WQE_BITS{1'b0}};
        pack[`RDMA_SEND_WQE_OPCODE_LSB +: `RDMA_SEND_WQE_OPCODE_WIDTH] = opcode;
        pack[`RDMA_SEND_WQE_IMMEDIATE_LSB +: `RDMA_SEND_WQE_IMMEDIATE_WIDTH] = immediate;
        pack[`RDMA_SEND_WQE_WR_ID_LSB +: `RDMA_SEND_WQE_WR_ID_WIDTH] = wr_id;
        pack[`RDMA_SEND_WQE_LOCAL_ADDRESS_LSB +: `RDMA_SEND_WQE_LOCAL_ADDRESS_WIDTH] = local_address;
        pack[`RDMA_SEND_WQE_LENGTH_LSB +: `RDMA_SEND_WQE_LENGTH_WIDTH] = length;
        pack[`RDMA_SEND_WQE_RKEY_LSB +: `RDMA_SEND_WQE_RKEY_WIDTH] = rkey;
        pack[`RDMA_SEND_WQE_REMOTE_ADDRESS_LSB +: `RDMA_SEND_WQE_REMOTE_ADDRESS_WIDTH] = remote_address;
    end
endfunction

wire [15:0] producer = wqe_qp_prev ? posted_prev : posted_next;
wire [3:0]  log_size = wqe_qp_prev ? sq_log_size_prev : sq_log_size_next;
wire [63:0] base = wqe_qp_prev ? sq_base_prev : sq_base_next;
wire [15:0] slot = producer & ((16'd1 << log_size) - 16'd1);

always @(posedge clk) begin
    case (state)
        S_IDLE: begin
            if (s_wqe_valid && s_wqe_ready) begin
                wqe <= pack(s_wqe_opcode, s_wqe_immediate, s_wqe_wr_id, s_wqe_local_address, s_wqe_length,
                            s_wqe_rkey, s_wqe_remote_address);
                wqe_qp_prev <= s_wqe_qp_prev;
                beat <= {BEAT_WIDTH{1'b0}};
                state <= S_WRITE;
            end
        end
        S_WRITE: begin
            if (!m_write_cmd_valid && !sending) begin
                m_write_cmd_addr <= base + {42'd0, slot, 6'd0};
                m_write_cmd_valid <= 1'b1;
            end
            if (m_write_cmd_valid && m_write_cmd_ready) begin
                m_write_cmd_valid <= 1'b0;
                sending <= 1'b1;
            end
            if (sending && m_write_axis_tready) begin
                beat <= beat + 1'b1;
                if (m_write_axis_tlast) begin
                    sending <= 1'b0;
                    state <= S_STATUS;
                end
            end
        end
        S_STATUS: begin
            if (write_status_valid) begin
                if (write_status_error) begin
                    // Never ring for a WQE that is not in memory
                    memory_error <= 1'b1;
                    state <= S_IDLE;
                end else begin
                    m_doorbell_valid <= 1'b1;
                    m_doorbell_qpn <= wqe_qp_prev ? qpn_prev : qpn_next;
                    m_doorbell_producer_index <= producer + 1'b1;
                    state <= S_DOORBELL;
                end
            end
        end
        default: begin  // S_DOORBELL
            if (m_doorbell_ready) begin
                m_doorbell_valid <= 1'b0;
                if (wqe_qp_prev) begin
                    posted_prev <= posted_prev + 1'b1;
                end else begin
                    posted_next <= posted_next + 1'b1;
                end
                state <= S_IDLE;
            end
        end
    endcase
    if (attach) begin
        posted_next <= 16'd0;
        posted_prev <= 16'd0;
        memory_error <= 1'b0;
    end
    if (rst) begin
        state <= S_IDLE;
        m_write_cmd_valid <= 1'b0;
        sending <= 1'b0;
        m_doorbell_valid <= 1'b0;
        posted_next <= 16'd0;
        posted_prev <= 16'd0;
        memory_error <= 1'b0;
    end
end

endmodule

`resetall
