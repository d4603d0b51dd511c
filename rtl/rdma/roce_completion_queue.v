// Completion queue writer: 32-byte completion entries into a ring in host memory, with an owner bit per pass
`resetall
`timescale 1ns / 1ps
`default_nettype none

// The ring holds 2^log_size entries of 32 bytes at a base address in host memory. The host
// zeroes it, then polls the entry at its consumer index until the entry's owner bit equals the
// pass bit it expects (1 on the first pass over the ring, 0 on the second, and so on), and
// hands entries back by writing its free-running consumer index. An entry the host has not
// handed back is never overwritten: with the ring full, the next completion waits.
//
// Entry layout (little endian), the fields of ibverbs' struct ibv_wc that RC uses:
//   bytes 0-7 wr_id, 8-11 byte_len, 12-15 immediate data, 16-18 local QP number,
//   20 opcode (ibv_wc_opcode), 21 status (ibv_wc_status), 22 flags (bit 0: immediate valid),
//   23 owner (bit 0), 24-31 zero.
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

localparam ENTRY_BYTES = 32;
localparam KEEP_WIDTH = DATA_WIDTH / 8;
localparam BEATS = KEEP_WIDTH >= ENTRY_BYTES ? 1 : ENTRY_BYTES / KEEP_WIDTH;
localparam BEAT_INDEX_WIDTH = BEATS > 1 ? $clog2(BEATS) : 1;
localparam LANE_BITS = KEEP_WIDTH >= ENTRY_BYTES ? ENTRY_BYTES * 8 : DATA_WIDTH;

initial begin
    if (DATA_WIDTH < 64 || (DATA_WIDTH & (DATA_WIDTH - 1)) != 0) begin
        $error("Error: DATA_WIDTH must be a power of two, 64 or more (instance %m)");
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
        entry <= {64'd0, 7'd0, !pass_is_odd, 7'd0, s_cqe_immediate_valid, s_cqe_status, s_cqe_opcode,
                  8'd0, s_cqe_qpn, s_cqe_immediate, s_cqe_byte_len, s_cqe_wr_id};
        m_write_cmd_addr <= cq_base + {43'd0, cq_producer_index & ring_mask, 5'd0};
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
