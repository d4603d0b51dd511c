// PCIe requester for small host transfers on the UltraScale+ RQ/RC interfaces: one read or write of up to 16 dwords at a time
`resetall
`timescale 1ns / 1ps
`default_nettype none

// Queue entries and completion entries are small and dword aligned (an NVMe SQE is 16 dwords, a
// CQE 4), so this requester carries exactly those: a memory write of 1 to 16 dwords from a
// register, or a memory read of 1 to 16 dwords into one, never crossing 4 KiB (the caller's
// addresses are entry-aligned inside their queue's pages). One request is outstanding at a time
// with tag 0; a read's completions (several if the host splits them) are placed by their lower
// address until the one marked "request completed". A completion with an error code (Unsupported
// Request, Completer Abort, poisoned) ends the read with read_error: the caller answers it, the
// tag is free again. Formats: Xilinx PG213, DWORD-aligned mode, no straddling.
module pcie_us_requester #(
    // Width of the RQ and RC streams in bits: 256 or 512
    parameter DATA_WIDTH = 512
) (
    input  wire                       clk,
    input  wire                       rst,

    input  wire                       write_valid,
    output wire                       write_ready,
    input  wire [63:0]                write_address,
    input  wire [4:0]                 write_dwords,   // 1 to 16
    input  wire [511:0]               write_data,     // dword 0 in bits 31:0
    output reg                        write_done,     // one cycle: the write's last beat went to the IP

    input  wire                       read_valid,
    output wire                       read_ready,
    input  wire [63:0]                read_address,
    input  wire [4:0]                 read_dwords,    // 1 to 16
    output reg                        read_done,      // one cycle
    output reg  [511:0]               read_data,
    output reg                        read_error,

    output wire [DATA_WIDTH-1:0]      m_axis_rq_tdata,
    output wire [DATA_WIDTH/32-1:0]   m_axis_rq_tkeep,
    output wire                       m_axis_rq_tvalid,
    input  wire                       m_axis_rq_tready,
    output wire                       m_axis_rq_tlast,
    output wire [RQ_USER_WIDTH-1:0]   m_axis_rq_tuser,

    input  wire [DATA_WIDTH-1:0]      s_axis_rc_tdata,
    input  wire [DATA_WIDTH/32-1:0]   s_axis_rc_tkeep,
    input  wire                       s_axis_rc_tvalid,
    output wire                       s_axis_rc_tready,
    input  wire                       s_axis_rc_tlast,
    input  wire [RC_USER_WIDTH-1:0]   s_axis_rc_tuser
);

localparam RQ_USER_WIDTH = DATA_WIDTH == 512 ? 137 : 62;
localparam RC_USER_WIDTH = DATA_WIDTH == 512 ? 161 : 75;
localparam LANES = DATA_WIDTH / 32;
localparam [5:0] LANE_COUNT = LANES[5:0];
// A TLP: the 4-dword descriptor and at most 16 dwords, sent DATA_WIDTH bits a beat
localparam TLP_BITS = 128 + 512;
localparam [3:0] REQ_MEM_READ = 4'b0000, REQ_MEM_WRITE = 4'b0001;

initial begin
    if (DATA_WIDTH != 256 && DATA_WIDTH != 512) begin
        $error("Error: DATA_WIDTH must be 256 or 512 (instance %m)");
        $finish;
    end
end

localparam [1:0] S_IDLE = 2'd0, S_SEND = 2'd1, S_WAIT_COMPLETION = 2'd2;

reg [1:0]          state;
reg [TLP_BITS-1:0] tlp;
reg [5:0]          tlp_dwords_left;   // descriptor and payload dwords not yet sent
reg                tlp_is_read;
reg [3:0]          first_be, last_be;
reg                first_beat;
reg [11:0]         read_start;        // the read's address within its page, for placing completions

assign write_ready = state == S_IDLE && !read_valid;
assign read_ready = state == S_IDLE;

wire [5:0] beat_dwords = tlp_dwords_left > LANE_COUNT ? LANE_COUNT : tlp_dwords_left;
assign m_axis_rq_tvalid = state == S_SEND;
assign m_axis_rq_tdata = tlp[DATA_WIDTH-1:0];
assign m_axis_rq_tlast = tlp_dwords_left <= LANE_COUNT;
genvar lane;
generate
    for (lane = 0; lane < LANES; lane = lane + 1) begin : keep
        assign m_axis_rq_tkeep[lane] = lane < beat_dwords;
    end
endgenerate
// Byte enables (the last dword's are 0 for a one-dword request) and, at 512 bits, start and
// end of packet in segment 0
generate
    if (DATA_WIDTH == 512) begin : user_512
        // [3:0] first_be, [11:8] last_be, [20] is_sop0, [26] is_eop0, [31:28] is_eop0_ptr
        assign m_axis_rq_tuser = {{(RQ_USER_WIDTH-32){1'b0}}, beat_dwords[3:0] - 4'd1, 1'b0, m_axis_rq_tlast,
                                  5'd0, first_beat, 4'd0, 4'd0, last_be, 4'd0, first_be};
    end else begin : user_256
        assign m_axis_rq_tuser = {{(RQ_USER_WIDTH-8){1'b0}}, last_be, first_be};
    end
endgenerate

function [127:0] descriptor(input [63:0] address, input [4:0] dwords, input [3:0] request_type);
    begin
        // address, dword count, request type, tag 0, requester ID 0 (the IP fills in the bus)
        descriptor = {32'd0, 16'd0, 1'b0, request_type, 6'd0, dwords, address[63:2], 2'b00};
    end
endfunction

// Completions for the outstanding read
wire [11:0] completion_lower_address = s_axis_rc_tdata[11:0];
wire [3:0]  completion_error = s_axis_rc_tdata[15:12];
wire        completion_last = s_axis_rc_tdata[30];
// Where this completion's first payload dword goes in the read's 16, and the next one after it
wire [11:0] completion_offset = completion_lower_address - read_start;
wire [31:0] completion_first_dword = {22'd0, completion_offset[11:2]};
reg  [31:0] place_dword;
reg         completion_first_beat;
reg         request_completed;  // the completion being received is the read's last
assign s_axis_rc_tready = 1'b1;

integer index;
always @(posedge clk) begin
    read_done <= 1'b0;
    write_done <= 1'b0;
    case (state)
        S_IDLE: begin
            first_beat <= 1'b1;
            if (read_valid) begin
                tlp <= {{(TLP_BITS-128){1'b0}}, descriptor(read_address, read_dwords, REQ_MEM_READ)};
                tlp_dwords_left <= 6'd4;
                tlp_is_read <= 1'b1;
                first_be <= 4'hF;
                last_be <= read_dwords == 5'd1 ? 4'h0 : 4'hF;
                read_start <= read_address[11:0];
                read_error <= 1'b0;
                read_data <= 512'd0;
                completion_first_beat <= 1'b1;
                state <= S_SEND;
            end else if (write_valid) begin
                tlp <= {write_data, descriptor(write_address, write_dwords, REQ_MEM_WRITE)};
                tlp_dwords_left <= 6'd4 + {1'b0, write_dwords};
                tlp_is_read <= 1'b0;
                first_be <= 4'hF;
                last_be <= write_dwords == 5'd1 ? 4'h0 : 4'hF;
                state <= S_SEND;
            end
        end
        S_SEND: begin
            if (m_axis_rq_tready) begin
                first_beat <= 1'b0;
                tlp <= tlp >> DATA_WIDTH;
                tlp_dwords_left <= tlp_dwords_left - beat_dwords;
                if (m_axis_rq_tlast) begin
                    write_done <= !tlp_is_read;
                    state <= tlp_is_read ? S_WAIT_COMPLETION : S_IDLE;
                end
            end
        end
        default: begin  // S_WAIT_COMPLETION
            if (s_axis_rc_tvalid) begin
                if (completion_first_beat) begin
                    // Descriptor in dwords 0-2, data from dword 3, placed by the lower address
                    for (index = 3; index < LANES; index = index + 1) begin
                        if (completion_first_dword + index - 3 < 16) begin
                            read_data[32*(completion_first_dword + index - 3) +: 32] <= s_axis_rc_tdata[32*index +: 32];
                        end
                    end
                    place_dword <= completion_first_dword + LANES - 3;
                    if (completion_error != 4'd0) begin
                        read_error <= 1'b1;
                    end
                end else begin
                    for (index = 0; index < LANES; index = index + 1) begin
                        if (place_dword + index < 16) begin
                            read_data[32*(place_dword + index) +: 32] <= s_axis_rc_tdata[32*index +: 32];
                        end
                    end
                    place_dword <= place_dword + LANES;
                end
                completion_first_beat <= s_axis_rc_tlast;
                if (s_axis_rc_tlast && (completion_first_beat ? (completion_last || completion_error != 4'd0)
                                                             : request_completed)) begin
                    read_done <= 1'b1;
                    state <= S_IDLE;
                end
                if (completion_first_beat) begin
                    request_completed <= completion_last || completion_error != 4'd0;
                end
            end
        end
    endcase
    if (rst) begin
        state <= S_IDLE;
        read_done <= 1'b0;
        read_error <= 1'b0;
    end
end

endmodule

`resetall
