// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Ring rank receiver: reduces each incoming reduce-scatter chunk into the local buffer and stores
// each all-gather chunk, one beat per cycle
`resetall
`timescale 1ns / 1ps
`default_nettype none

module ring_receiver #(
    // Width of a beat in bits (a multiple of 32: the reducer's lanes are 32 bits or more)
    parameter DATA_WIDTH = 512,
    // Width of a beat address in the local buffer
    parameter ADDR_WIDTH = 10,
    // Width of a beat count: wider than ADDR_WIDTH, since a vector may fill the whole buffer
    parameter COUNT_WIDTH = 11,
    // Width of a rank number (2 or more: the step count is built from RANK_WIDTH-1 zero bits)
    parameter RANK_WIDTH = 5
) (
    input  wire                    clk,
    input  wire                    rst,

    input  wire                    launch,
    input  wire [RANK_WIDTH-1:0]   rank,
    input  wire [RANK_WIDTH-1:0]   ranks,
    input  wire [COUNT_WIDTH-1:0]  total_beats,
    input  wire [DATA_WIDTH/8-1:0] final_keep,
    input  wire [2:0]              dtype,
    input  wire [1:0]              op,
    input  wire                    flush_subnormals,
    output reg                     finished,
    output reg  [RANK_WIDTH:0]     steps_done,
    output reg  [COUNT_WIDTH-1:0]  beats_written,

    output wire [RANK_WIDTH-1:0]   chunk,
    input  wire [COUNT_WIDTH-1:0]  chunk_start,
    input  wire [COUNT_WIDTH-1:0]  chunk_beats,

    input  wire [DATA_WIDTH-1:0]   s_axis_tdata,
    input  wire [DATA_WIDTH/8-1:0] s_axis_tkeep,
    input  wire                    s_axis_tvalid,
    output wire                    s_axis_tready,
    input  wire                    s_axis_tlast,

    output wire [ADDR_WIDTH-1:0]   read_address,
    input  wire [DATA_WIDTH-1:0]   read_data,
    output wire                    write_enable,
    output reg  [ADDR_WIDTH-1:0]   write_address,
    output wire [DATA_WIDTH-1:0]   write_data,

    // Counter events
    output wire                    event_reducer_beat,
    output wire                    event_starved,
    output wire [7:0]              event_nan_elements,
    output wire [7:0]              event_overflow_elements,
    output wire                    event_data_error
);

initial begin
    if (DATA_WIDTH < 32 || DATA_WIDTH % 32 != 0) begin
        $error("Error: DATA_WIDTH must be a multiple of 32 (instance %m)");
        $finish;
    end
    if (ADDR_WIDTH < 1 || COUNT_WIDTH <= ADDR_WIDTH || RANK_WIDTH < 2) begin
        $error("Error: ADDR_WIDTH must be 1 or more, COUNT_WIDTH more than ADDR_WIDTH and RANK_WIDTH 2 or more (instance %m)");
        $finish;
    end
end

localparam KEEP_WIDTH = DATA_WIDTH / 8;

reg  [RANK_WIDTH:0]    step;
reg                    running, step_launched;
wire [RANK_WIDTH:0]    step_count = {ranks, 1'b0} - {{RANK_WIDTH-1{1'b0}}, 2'd2};
wire                   all_gather;
wire                   stepping = running && step != step_count;
wire                   launch_step = stepping && !step_launched && chunk_beats != 0;

ring_schedule #(.RANK_WIDTH(RANK_WIDTH)) schedule_inst (
    .rank(rank),
    .ranks(ranks),
    .step(step),
    .all_gather(all_gather),
    .send_chunk(),
    .receive_chunk(chunk)
);

// Reduce-scatter: the local copy of the chunk streams out of the buffer beside the incoming one.
wire [DATA_WIDTH-1:0] local_tdata;
wire [KEEP_WIDTH-1:0] local_tkeep;
wire                  local_tvalid, local_tready, local_tlast;

buffer_reader #(
    .DATA_WIDTH(DATA_WIDTH),
    .ADDR_WIDTH(ADDR_WIDTH),
    .COUNT_WIDTH(COUNT_WIDTH)
) local_reader_inst (
    .clk(clk),
    .rst(rst),
    .run_start(launch_step && !all_gather),
    .run_address(chunk_start[ADDR_WIDTH-1:0]),
    .run_beats(chunk_beats),
    .run_final_keep(final_keep),
    .run_ends_vector(chunk_start + chunk_beats == total_beats),
    .run_busy(),
    .beats_issued(),
    .read_allowed(1'b1),
    .read_address(read_address),
    .read_data(read_data),
    .m_axis_tdata(local_tdata),
    .m_axis_tkeep(local_tkeep),
    .m_axis_tvalid(local_tvalid),
    .m_axis_tready(local_tready),
    .m_axis_tlast(local_tlast)
);

wire reducing = step_launched && !all_gather;
wire storing = step_launched && all_gather;

wire [DATA_WIDTH-1:0] reduced_tdata;
wire                  reduced_tvalid, reduced_tuser, incoming_tready;
wire                  length_mismatch, keep_error;

// Each collective starts the reducer afresh: no drain left over from malformed data carries on.
allreduce_reducer #(.DATA_WIDTH(DATA_WIDTH)) reducer_inst (
    .clk(clk),
    .rst(rst || launch),
    .dtype(dtype),
    .op(op),
    .flush_subnormals(flush_subnormals),
    .config_error(),
    .s_axis_incoming_tdata(s_axis_tdata),
    .s_axis_incoming_tkeep(s_axis_tkeep),
    .s_axis_incoming_tvalid(s_axis_tvalid && reducing),
    .s_axis_incoming_tready(incoming_tready),
    .s_axis_incoming_tlast(s_axis_tlast),
    .s_axis_local_tdata(local_tdata),
    .s_axis_local_tkeep(local_tkeep),
    .s_axis_local_tvalid(local_tvalid),
    .s_axis_local_tready(local_tready),
    .s_axis_local_tlast(local_tlast),
    .m_axis_tdata(reduced_tdata),
    .m_axis_tkeep(),
    .m_axis_tvalid(reduced_tvalid),
    .m_axis_tready(1'b1),
    .m_axis_tlast(),
    .m_axis_tuser(reduced_tuser),
    .event_starved(event_starved),
    .event_nan_elements(event_nan_elements),
    .event_overflow_elements(event_overflow_elements),
    .event_length_mismatch(length_mismatch),
    .event_keep_error(keep_error),
    .event_dropped_beat()
);

// All-gather beats go straight to the buffer; one beat per cycle, never more than the chunk.
reg [COUNT_WIDTH-1:0] beats_accepted;
wire store_beat = storing && s_axis_tvalid && beats_accepted != chunk_beats;
wire stored_last_mismatch = store_beat && (s_axis_tlast != (beats_accepted + 1'b1 == chunk_beats));

assign s_axis_tready = reducing ? incoming_tready : store_beat;
assign write_enable = reduced_tvalid || store_beat;
assign write_data = store_beat ? s_axis_tdata : reduced_tdata;

assign event_reducer_beat = reduced_tvalid;
assign event_data_error = length_mismatch || keep_error || (reduced_tvalid && reduced_tuser) || stored_last_mismatch;

wire step_complete = step_launched && write_enable && beats_written + 1'b1 == chunk_beats;

always @(posedge clk) begin
    finished <= 1'b0;
    if (write_enable) begin
        write_address <= write_address + 1'b1;
        beats_written <= beats_written + 1'b1;
    end
    if (store_beat) begin
        beats_accepted <= beats_accepted + 1'b1;
    end
    if (stepping) begin
        if (!step_launched && chunk_beats == 0) begin
            step <= step + 1'b1;  // an empty chunk: nothing arrives in this step
            steps_done <= steps_done + 1'b1;
        end else if (launch_step) begin
            step_launched <= 1'b1;
            write_address <= chunk_start[ADDR_WIDTH-1:0];
            beats_written <= {COUNT_WIDTH{1'b0}};
            beats_accepted <= {COUNT_WIDTH{1'b0}};
        end else if (step_complete) begin
            step_launched <= 1'b0;
            step <= step + 1'b1;
            steps_done <= steps_done + 1'b1;
            beats_written <= {COUNT_WIDTH{1'b0}};
        end
    end else if (running) begin
        running <= 1'b0;
        finished <= 1'b1;
    end
    if (launch) begin
        step <= {RANK_WIDTH+1{1'b0}};
        steps_done <= {RANK_WIDTH+1{1'b0}};
        beats_written <= {COUNT_WIDTH{1'b0}};
        running <= 1'b1;
        step_launched <= 1'b0;
    end
    if (rst) begin
        running <= 1'b0;
        step_launched <= 1'b0;
        finished <= 1'b0;
        steps_done <= {RANK_WIDTH+1{1'b0}};
        beats_written <= {COUNT_WIDTH{1'b0}};
    end
end

endmodule

`resetall
