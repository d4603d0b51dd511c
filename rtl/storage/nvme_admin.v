// NVMe admin queue: submission entries fetched from host memory, admin commands executed, completions posted with phase
`resetall
`timescale 1ns / 1ps
`default_nettype none

// Facts from shared/reference/nvme.md (NVMe base specification):
// - The SQ tail doorbell says where the host stopped writing; entries from the controller's head
//   up to it are fetched (64 bytes each) and executed in order. A queue of N entries is empty
//   when head == tail and full when tail + 1 == head (mod N).
// - Each completion (16 bytes) carries the command's result (DW0), SQHD (the SQ head after the
//   fetch) and SQID, the CID, the status (SC, SCT, DNR) and the phase tag: 1 on the first pass
//   over the CQ, inverted on each wrap. A completion is never written into a full CQ: the engine
//   waits for the CQ head doorbell.
// - A doorbell value past the queue's size is an invalid doorbell write value, a doorbell of a
//   queue that does not exist a write to an invalid doorbell register: both are ignored and
//   reported through an outstanding Asynchronous Event Request (error status, log page 01h).
// Commands in this first part: Set/Get Features (Number of Queues, Interrupt Coalescing), Abort
// (answered "not aborted"), Asynchronous Event Request (up to 4 outstanding, completed oldest
// first, one per event; a fifth is refused with Asynchronous Event Request Limit Exceeded).
// Every other opcode, Identify included until the data path exists, completes with Invalid Opcode.
module nvme_admin #(
    // Queue pairs of the controller, the admin one included (Number of Queues reports QUEUES-1)
    parameter QUEUES = 17
) (
    input  wire         clk,
    input  wire         rst,

    input  wire         enabled,
    input  wire [11:0]  sq_size,      // entries - 1
    input  wire [11:0]  cq_size,
    input  wire [63:0]  sq_base,
    input  wire [63:0]  cq_base,

    input  wire         doorbell_valid,
    input  wire [6:0]   doorbell_queue,
    input  wire         doorbell_is_cq_head,
    input  wire [15:0]  doorbell_value,
    input  wire         invalid_doorbell,

    // To the PCIe requester
    output reg          write_valid,
    input  wire         write_ready,
    output reg  [63:0]  write_address,
    output wire [4:0]   write_dwords,
    output reg  [511:0] write_data,
    output reg          read_valid,
    input  wire         read_ready,
    output reg  [63:0]  read_address,
    output wire [4:0]   read_dwords,
    input  wire         read_done,
    input  wire [511:0] read_data,
    input  wire         read_error,
    // A completion's write went to the host: interrupt on the admin vector (0), after the entry
    // so that the message cannot pass it
    input  wire         write_done,
    output wire         interrupt_request,

    // One cycle per event, for the counters
    output reg          event_command,
    output reg          event_error_status
);

localparam [7:0] OP_ABORT = 8'h08, OP_SET_FEATURES = 8'h09, OP_GET_FEATURES = 8'h0A,
                 OP_ASYNC_EVENT_REQUEST = 8'h0C;
localparam [7:0] FEATURE_INTERRUPT_COALESCING = 8'h08, FEATURE_NUMBER_OF_QUEUES = 8'h07;
// Generic status codes (SCT 0)
localparam [7:0] SC_SUCCESS = 8'h00, SC_INVALID_OPCODE = 8'h01, SC_INVALID_FIELD = 8'h02,
                 SC_DATA_TRANSFER_ERROR = 8'h04;
// Command-specific status (SCT 1)
localparam [7:0] SC_EVENT_REQUEST_LIMIT_EXCEEDED = 8'h05;
// Asynchronous event: error status, information 00h (invalid doorbell register) or 01h
// (invalid doorbell write value), log page 01h (error information)
localparam [7:0] AEI_INVALID_REGISTER = 8'h00, AEI_INVALID_VALUE = 8'h01;
localparam [15:0] IO_QUEUES_ZERO_BASED = QUEUES - 2;

assign write_dwords = 5'd4;
// Every write this engine makes is a completion entry
assign interrupt_request = write_done && enabled;
assign read_dwords = 5'd16;

reg [11:0] sq_head, sq_tail, cq_tail, cq_head;
reg        phase;
// Asynchronous Event Requests waiting for an event (oldest first), and an event waiting for one
localparam EVENT_REQUEST_LIMIT = 4;  // Identify AERL + 1
reg [15:0] event_request_cid [0:EVENT_REQUEST_LIMIT-1];
reg [2:0]  event_requests;
wire       event_request_waiting = event_requests != 3'd0;
reg        event_pending;
reg [7:0]  event_information;
reg [31:0] interrupt_coalescing;

wire [11:0] sq_head_next = sq_head == sq_size ? 12'd0 : sq_head + 12'd1;
wire [11:0] cq_tail_next = cq_tail == cq_size ? 12'd0 : cq_tail + 12'd1;
wire        cq_full = cq_tail_next == cq_head;

// The command being executed
wire [7:0]  opcode = read_data[7:0];
wire [15:0] cid = read_data[31:16];
wire [31:0] cdw10 = read_data[351:320];
wire [31:0] cdw11 = read_data[383:352];

localparam [2:0] S_IDLE = 3'd0, S_FETCH = 3'd1, S_EXECUTE = 3'd2, S_POST = 3'd3, S_WRITE = 3'd4;
reg [2:0]  state;
reg [31:0] result;
reg [7:0]  status_code;
reg [2:0]  status_type;
reg [15:0] completion_cid;

// Doorbells for the admin queue: check the value against the queue's size
always @(posedge clk) begin
    if (doorbell_valid) begin
        if (doorbell_queue != 7'd0) begin
            // No I/O queue exists yet
            event_pending <= 1'b1;
            event_information <= AEI_INVALID_REGISTER;
        end else if (doorbell_value > {4'd0, doorbell_is_cq_head ? cq_size : sq_size}) begin
            event_pending <= 1'b1;
            event_information <= AEI_INVALID_VALUE;
        end else if (doorbell_is_cq_head) begin
            cq_head <= doorbell_value[11:0];
        end else begin
            sq_tail <= doorbell_value[11:0];
        end
    end
    if (invalid_doorbell && enabled) begin
        event_pending <= 1'b1;
        event_information <= AEI_INVALID_REGISTER;
    end
    // The event is handed to a waiting request (below) when its completion is posted
    if (state == S_IDLE && event_pending && event_request_waiting && !cq_full && enabled) begin
        event_pending <= 1'b0;
    end
    if (rst || !enabled) begin
        sq_tail <= 12'd0;
        cq_head <= 12'd0;
        event_pending <= 1'b0;
    end
end

integer index;
always @(posedge clk) begin
    event_command <= 1'b0;
    event_error_status <= 1'b0;
    if (read_valid && read_ready) begin
        read_valid <= 1'b0;
    end
    if (write_valid && write_ready) begin
        write_valid <= 1'b0;
    end

    case (state)
        S_IDLE: begin
            if (enabled && !cq_full) begin
                if (event_pending && event_request_waiting) begin
                    // An event completes the oldest waiting Asynchronous Event Request
                    for (index = 0; index < EVENT_REQUEST_LIMIT - 1; index = index + 1) begin
                        event_request_cid[index] <= event_request_cid[index + 1];
                    end
                    event_requests <= event_requests - 3'd1;
                    completion_cid <= event_request_cid[0];
                    result <= {8'd0, 8'h01, event_information, 5'd0, 3'd0};
                    status_code <= SC_SUCCESS;
                    status_type <= 3'd0;
                    state <= S_POST;
                end else if (sq_head != sq_tail) begin
                    read_address <= sq_base + {46'd0, sq_head, 6'd0};
                    read_valid <= 1'b1;
                    state <= S_FETCH;
                end
            end
        end
        S_FETCH: begin
            if (read_done) begin
                sq_head <= sq_head_next;
                state <= S_EXECUTE;
            end
        end
        S_EXECUTE: begin
            event_command <= 1'b1;
            completion_cid <= cid;
            result <= 32'd0;
            status_code <= SC_SUCCESS;
            status_type <= 3'd0;
            state <= S_POST;
            if (read_error) begin
                // The entry could not be read: its CID is unknown, so the host sees 0
                completion_cid <= 16'd0;
                status_code <= SC_DATA_TRANSFER_ERROR;
            end else begin
                case (opcode)
                    OP_SET_FEATURES, OP_GET_FEATURES: begin
                        if (cdw10[7:0] == FEATURE_NUMBER_OF_QUEUES) begin
                            // Set asks for counts (0-based); 0xFFFF is invalid. Both answer with
                            // the queues the controller has.
                            if (opcode == OP_SET_FEATURES && (cdw11[15:0] == 16'hFFFF || cdw11[31:16] == 16'hFFFF)) begin
                                status_code <= SC_INVALID_FIELD;
                            end else begin
                                result <= {IO_QUEUES_ZERO_BASED, IO_QUEUES_ZERO_BASED};
                            end
                        end else if (cdw10[7:0] == FEATURE_INTERRUPT_COALESCING) begin
                            if (opcode == OP_SET_FEATURES) begin
                                interrupt_coalescing <= {16'd0, cdw11[15:0]};
                            end else begin
                                result <= interrupt_coalescing;
                            end
                        end else begin
                            status_code <= SC_INVALID_FIELD;
                        end
                    end
                    OP_ABORT: result <= 32'd1;  // bit 0: the command was not aborted
                    OP_ASYNC_EVENT_REQUEST: begin
                        if (event_requests == EVENT_REQUEST_LIMIT) begin
                            status_code <= SC_EVENT_REQUEST_LIMIT_EXCEEDED;
                            status_type <= 3'd1;
                        end else begin
                            // Completes when an event happens
                            event_request_cid[event_requests[1:0]] <= cid;
                            event_requests <= event_requests + 3'd1;
                            state <= S_IDLE;
                        end
                    end
                    default: status_code <= SC_INVALID_OPCODE;
                endcase
            end
        end
        S_POST: begin
            // DW0 result, DW2 SQ head and SQ 0, DW3 CID, phase and status (DNR on errors)
            write_address <= cq_base + {48'd0, cq_tail, 4'd0};
            write_data <= {384'd0, status_code != SC_SUCCESS, 1'b0, 2'b00, status_type, status_code, phase, completion_cid,
                           16'd0, 4'd0, sq_head, 32'd0, result};
            write_valid <= 1'b1;
            event_error_status <= status_code != SC_SUCCESS;
            state <= S_WRITE;
        end
        default: begin  // S_WRITE
            if (!write_valid || write_ready) begin
                cq_tail <= cq_tail_next;
                if (cq_tail == cq_size) begin
                    phase <= !phase;
                end
                state <= S_IDLE;
            end
        end
    endcase

    if (rst || !enabled) begin
        state <= S_IDLE;
        sq_head <= 12'd0;
        cq_tail <= 12'd0;
        phase <= 1'b1;
        event_requests <= 3'd0;
        interrupt_coalescing <= 32'd0;
        read_valid <= 1'b0;
        write_valid <= 1'b0;
    end
end

endmodule

`resetall
