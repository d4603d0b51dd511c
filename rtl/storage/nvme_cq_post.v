// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// NVMe completion posting: the admin CQ's slots and phase, completion entries to the PCIe requester one at a time in slot order, a released Write's slot held for its status, and each entry's interrupt
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "nvme_defs.vh"

// Facts from docs/reference/nvme.md (NVMe base specification):
// - Each completion (16 bytes) carries the command's result (DW0), SQHD (the SQ head after the
//   fetch) and SQID, the CID, the status (SC, SCT, DNR on errors) and the phase tag: 1 on the
//   first pass over the CQ, inverted on each wrap. A CQ of N entries is full when tail + 1 ==
//   head (mod N); a completion is never written into a full CQ, the engine waits for the CQ head
//   doorbell (cq_full says so for the admin CQ; the I/O CQs' room is counted before their fetch).
// A posted entry's slot is taken in the cycle it is posted, so the engine can go on while the
// requester sends it; the next entry waits until it has gone and its interrupt is raised (so the
// message cannot pass the entry). A released Write's completion takes its slot when it is
// released (so the room counted for later fetches stays right) and is sent when its data is in:
// entries go out in the order their slots were taken, so a later one waits for it. The I/O CQs'
// tails and phases are the queue table's; the engine hands their slot with the entry.
module nvme_cq_post (
    input  wire         clk,
    input  wire         rst,            // also while the controller is disabled
    input  wire         enabled,

    // The admin CQ (from the registers), and its head doorbell
    input  wire [11:0]  cq_size,        // entries - 1
    input  wire [63:0]  cq_base,
    input  wire         cq_head_valid,
    input  wire [11:0]  cq_head_value,
    output wire         cq_full,

    // An entry to post now (post_free must be up), or a released Write's slot to hold; an I/O
    // queue's entry comes with its CQ slot's address and phase and the CQ's vector
    input  wire         post,
    input  wire         hold_drain_slot,
    input  wire         post_admin,
    input  wire [15:0]  post_cid,
    input  wire [15:0]  post_sqid,
    input  wire [15:0]  post_sq_head,
    input  wire [7:0]   post_status_code,
    input  wire [2:0]   post_status_type,
    input  wire [31:0]  post_result,
    input  wire [63:0]  io_slot_address,
    input  wire         io_slot_phase,
    input  wire [4:0]   io_vector,
    input  wire         io_interrupts,
    // The released Write's status, when its data is in
    input  wire         drain_done,
    input  wire [7:0]   drain_status,

    output wire         post_free,      // an entry may be posted
    output reg          drain_pending,  // a released Write's completion is waiting
    output wire         posting,        // an entry is waiting or under way

    // To the PCIe requester
    output reg          write_valid,
    input  wire         write_ready,
    output reg  [63:0]  write_address,
    output reg  [511:0] write_data,
    // A completion's write went to the host: interrupt on its CQ's vector
    input  wire         write_done,
    output wire         interrupt_request,
    output reg  [4:0]   interrupt_vector,
    output reg          interrupt_admin,    // the entry is the admin CQ's (never coalesced)

    // For the counters: an entry posted, an entry handed to the requester with its status, and
    // whether it is a released Write's
    output reg          event_post,
    output wire         event_completion,
    output reg  [7:0]   completion_status_code,
    output reg  [2:0]   completion_status_type,
    output reg          completion_drained
);

// Only completion entries interrupt (an NVM Read's data writes do not)
reg         completion_in_flight;
reg         completion_interrupts;
// The previous completion entry is sent and its interrupt raised: the next may be posted
wire        completion_free = !write_valid && !completion_in_flight;

reg  [11:0] cq_tail, cq_head;
reg         phase;
wire [11:0] cq_tail_next = cq_tail == cq_size ? 12'd0 : cq_tail + 12'd1;
assign cq_full = cq_tail_next == cq_head;

// The released Write's slot and what its entry will say
reg         drain_finished;
reg  [7:0]  drain_result;
reg  [63:0] drain_address;
reg         drain_phase;
reg  [15:0] drain_cid;
reg  [15:0] drain_sqid;
reg  [15:0] drain_sq_head;      // as it was when the Write was released
reg  [4:0]  drain_vector;
reg         drain_interrupts;

assign post_free = completion_free && !drain_pending;
assign posting = write_valid || completion_in_flight || drain_pending;
assign interrupt_request = write_done && enabled && completion_in_flight && completion_interrupts;
assign event_completion = write_valid && write_ready;

always @(posedge clk) begin
    if (cq_head_valid) begin
        cq_head <= cq_head_value;
    end
    if (rst) begin
        cq_head <= 12'd0;
    end
end

always @(posedge clk) begin
    event_post <= 1'b0;
    if (write_done) begin
        completion_in_flight <= 1'b0;
    end
    // A completion entry goes to the requester while the engine moves on; the next one waits
    // until it has been sent (and its interrupt raised)
    if (write_valid && write_ready) begin
        write_valid <= 1'b0;
        completion_in_flight <= 1'b1;
    end
    if (drain_done) begin
        drain_finished <= 1'b1;
        drain_result <= drain_status;
    end
    if (drain_pending && (drain_finished || drain_done) && completion_free) begin
        send_completion(drain_address, drain_phase, drain_cid, drain_sqid, drain_sq_head,
                        drain_finished ? drain_result : drain_status, `NVME_SCT_GENERIC, 32'd0,
                        drain_vector, drain_interrupts);
        completion_drained <= 1'b1;
        drain_pending <= 1'b0;
        drain_finished <= 1'b0;
    end
    if (post) begin
        if (post_admin) begin
            send_completion(cq_base + {48'd0, cq_tail, 4'd0}, phase, post_cid, post_sqid, post_sq_head,
                            post_status_code, post_status_type, post_result, 5'd0, 1'b1);
            cq_tail <= cq_tail_next;
            if (cq_tail == cq_size) begin
                phase <= !phase;
            end
        end else begin
            send_completion(io_slot_address, io_slot_phase, post_cid, post_sqid, post_sq_head,
                            post_status_code, post_status_type, post_result, io_vector, io_interrupts);
        end
    end
    if (hold_drain_slot) begin
        drain_pending <= 1'b1;
        drain_finished <= 1'b0;
        drain_address <= io_slot_address;
        drain_phase <= io_slot_phase;
        drain_cid <= post_cid;
        drain_sqid <= post_sqid;
        drain_sq_head <= post_sq_head;
        drain_vector <= io_vector;
        drain_interrupts <= io_interrupts;
    end
    if (rst) begin
        cq_tail <= 12'd0;
        phase <= 1'b1;
        drain_pending <= 1'b0;
        drain_finished <= 1'b0;
        completion_in_flight <= 1'b0;
        write_valid <= 1'b0;
    end
end

// The completion entry: DW0 result, DW2 SQ head and SQ ID, DW3 CID, phase and status (DNR on
// errors), to the requester; its interrupt is raised once it has gone out
task send_completion(input [63:0] address, input entry_phase, input [15:0] entry_cid, input [15:0] sqid,
                     input [15:0] sqhd, input [7:0] code, input [2:0] code_type, input [31:0] entry_result,
                     input [4:0] vector, input interrupts);
    begin
        completion_status_code <= code;
        completion_status_type <= code_type;
        completion_drained <= 1'b0;
        event_post <= 1'b1;
        write_address <= address;
        write_data <= {384'd0, code != `NVME_SC_SUCCESS || code_type != `NVME_SCT_GENERIC, 1'b0, 2'b00, code_type, code, entry_phase, entry_cid, sqid,
                       sqhd, 32'd0, entry_result};
        interrupt_vector <= vector;
        interrupt_admin <= sqid == 16'd0;
        completion_interrupts <= interrupts;
        write_valid <= 1'b1;
    end
endtask

endmodule

`resetall
