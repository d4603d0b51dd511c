// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// One send WQE fetched ahead for the requester: the next WQE of the QP it just took one from
`resetall
`timescale 1ns / 1ps
`default_nettype none

// The requester fetches a WQE by DMA each time it takes a QP up to send, and waits for it: at
// 512 bits that wait is most of the time a small request costs. When it hands a WQE over and the
// QP has another one posted, it asks for that one at once (issue) and goes on with other work;
// this block takes the WQE's beats off the stream while the fetch is pending, and holds it
// tagged with its QP and index. When the requester next takes that QP up to send the WQE at that
// index, it finds it here (hit) and takes it (consume) instead of fetching; a WQE held for the QP
// that is not its next (it went back N to an earlier index meanwhile) is dropped then (consume
// without a hit). What is held or pending for a QP set up again is forgotten (forget): the new QP
// starts at index 0, which a WQE fetched ahead could only carry after the 16-bit index wrapped,
// so this guard is for that case alone (no test reaches it: it takes 65 536 WQEs).
//
// A posted WQE does not change until it completes (the host may reuse its slot only then), so a
// WQE fetched ahead is the one the requester would fetch later. The DMA reader delivers frames in
// the order they were asked for, so while the prefetch is pending, the stream's next frame is
// its; the requester fetches nothing else until then (it looks at `pending`).
module roce_wqe_prefetch #(
    // Bits of a local QP index
    parameter QP_INDEX_WIDTH = 8,
    // Width of the WQE stream in bits
    parameter DATA_WIDTH = 64,
    // Bytes of a WQE (a power of two)
    parameter WQE_BYTES = 64
) (
    input  wire                        clk,
    input  wire                        rst,

    // A fetch of WQE issue_index of QP issue_qp was just asked for, for this block (only when empty)
    input  wire                        issue,
    input  wire [QP_INDEX_WIDTH-1:0]   issue_qp,
    input  wire [15:0]                 issue_index,
    output wire                        empty,
    output wire                        pending,

    // The WQE stream's beats, taken while pending
    input  wire [DATA_WIDTH-1:0]       s_wqe_tdata,
    input  wire                        s_wqe_tvalid,
    input  wire                        s_wqe_tlast,

    // Whether the WQE held is QP lookup_qp's at index lookup_index, and the WQE; consume empties
    // the block (taken, or dropped as stale)
    input  wire [QP_INDEX_WIDTH-1:0]   lookup_qp,
    input  wire [15:0]                 lookup_index,
    output wire                        held_for_qp,
    output wire                        hit,
    output reg  [WQE_BYTES*8-1:0]      wqe,
    input  wire                        consume,

    // QP forget_qp was set up again
    input  wire                        forget,
    input  wire [QP_INDEX_WIDTH-1:0]   forget_qp
);

localparam KEEP_WIDTH = DATA_WIDTH / 8;
localparam WQE_BEATS = WQE_BYTES / KEEP_WIDTH > 0 ? WQE_BYTES / KEEP_WIDTH : 1;
localparam LANE_BITS = KEEP_WIDTH > WQE_BYTES ? WQE_BYTES * 8 : DATA_WIDTH;

localparam [1:0] EMPTY = 2'd0, PENDING = 2'd1, HELD = 2'd2;

reg [1:0]                   state;
reg                         discard;  // pending for a QP set up again meanwhile: drop it on arrival
reg [QP_INDEX_WIDTH-1:0]    tag_qp;
reg [15:0]                  tag_index;
reg [$clog2(WQE_BEATS+1)-1:0] beat;

assign empty = state == EMPTY;
assign pending = state == PENDING;
assign held_for_qp = state == HELD && tag_qp == lookup_qp;
assign hit = held_for_qp && tag_index == lookup_index;

always @(posedge clk) begin
    case (state)
        EMPTY: begin
            if (issue) begin
                state <= PENDING;
                discard <= 1'b0;
                tag_qp <= issue_qp;
                tag_index <= issue_index;
                beat <= 0;
            end
        end
        PENDING: begin
            if (s_wqe_tvalid) begin
                wqe[beat * LANE_BITS +: LANE_BITS] <= s_wqe_tdata[LANE_BITS-1:0];
                beat <= beat + 1'b1;
                if (s_wqe_tlast) begin
                    state <= discard ? EMPTY : HELD;
                end
            end
        end
        default: begin  // HELD
            if (consume) begin
                state <= EMPTY;
            end
        end
    endcase
    if (forget && tag_qp == forget_qp) begin
        if (state == HELD) begin
            state <= EMPTY;
        end
        discard <= 1'b1;
    end
    if (rst) begin
        state <= EMPTY;
        discard <= 1'b0;
    end
end

endmodule

`resetall
