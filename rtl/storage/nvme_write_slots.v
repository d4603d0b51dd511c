// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// What each of two NVM commands still has under way: host reads not yet answered, namespace writes not yet answered, and whether any failed
`resetall
`timescale 1ns / 1ps
`default_nettype none

// A Write whose reads are all issued can let the next command start while its data is still
// arriving, so two commands can have host reads and namespace writes under way at once: each
// command runs in a slot (0 or 1), and every read and write is counted against its slot. A
// read's slot comes back with its completion (the requester returns the read's context); the
// namespace writer answers writes in the order they were asked for, so the slot of each write
// asked for waits in a small FIFO until its answer. Starting a command in a slot clears that
// slot's failures (its counts are zero by then).
module nvme_write_slots #(
    // Namespace writes under way at most (the FIFO of their slots: a power of two, its indexes wrap)
    parameter WRITES = 64
) (
    input  wire       clk,
    input  wire       rst,

    input  wire       clear,            // a command starts in slot clear_slot
    input  wire       clear_slot,
    input  wire       read_issued,
    input  wire       read_issued_slot,
    input  wire       read_answered,    // the read's last completion, or an error completion
    input  wire       read_answered_slot,
    input  wire       read_error,
    input  wire       write_asked,
    input  wire       write_asked_slot,
    input  wire       write_answered,   // in the order asked
    input  wire       write_error,

    output wire [1:0] reads_pending,    // per slot: reads not yet answered
    output wire [1:0] writes_pending,   // per slot: writes not yet answered
    output reg  [1:0] read_failed,
    output reg  [1:0] write_failed,
    output wire       write_answered_slot, // the slot of the write answered this cycle
    output wire       slot_emptied         // that write was its slot's last read or write under way
);

initial begin
    if (WRITES < 2 || (WRITES & (WRITES - 1)) != 0) begin
        $error("Error: WRITES must be a power of two, 2 or more (instance %m)");
        $finish;
    end
end

localparam COUNT_WIDTH = $clog2(WRITES + 1);
localparam ORDER_WIDTH = $clog2(WRITES);
localparam [COUNT_WIDTH-1:0] ONE = 1;

reg [COUNT_WIDTH-1:0] reads [0:1];
reg [COUNT_WIDTH-1:0] writes [0:1];
reg [WRITES-1:0]      write_order;         // the slot of each write under way, oldest at read_index
reg [ORDER_WIDTH-1:0] write_index, read_index;

assign write_answered_slot = write_order[read_index];
assign reads_pending = {reads[1] != 0, reads[0] != 0};
assign writes_pending = {writes[1] != 0, writes[0] != 0};
assign slot_emptied = write_answered && writes[write_answered_slot] == ONE && reads[write_answered_slot] == 0;

integer slot;
always @(posedge clk) begin
    for (slot = 0; slot < 2; slot = slot + 1) begin
        reads[slot] <= reads[slot] + (read_issued && read_issued_slot == slot[0] ? ONE : 0)
                     - (read_answered && read_answered_slot == slot[0] ? ONE : 0);
        writes[slot] <= writes[slot] + (write_asked && write_asked_slot == slot[0] ? ONE : 0)
                      - (write_answered && write_answered_slot == slot[0] ? ONE : 0);
        if (clear && clear_slot == slot[0]) begin
            read_failed[slot] <= 1'b0;
            write_failed[slot] <= 1'b0;
        end
        if (read_answered && read_error && read_answered_slot == slot[0]) begin
            read_failed[slot] <= 1'b1;
        end
        if (write_answered && write_error && write_answered_slot == slot[0]) begin
            write_failed[slot] <= 1'b1;
        end
    end
    if (write_asked) begin
        write_order[write_index] <= write_asked_slot;
        write_index <= write_index + 1'b1;
    end
    if (write_answered) begin
        read_index <= read_index + 1'b1;
    end
    if (rst) begin
        reads[0] <= 0;
        reads[1] <= 0;
        writes[0] <= 0;
        writes[1] <= 0;
        read_failed <= 2'b00;
        write_failed <= 2'b00;
        write_index <= 0;
        read_index <= 0;
    end
end

endmodule

`resetall
