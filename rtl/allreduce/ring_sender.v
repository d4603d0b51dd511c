// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Ring rank sender: for every step of the schedule, streams the chunk it owes the next rank
`resetall
`timescale 1ns / 1ps
`default_nettype none

// From step 1 on, a sent chunk is the one the receiver finished (or is finishing) in the step
// before; a beat is read only once the receiver has written it, so sending overlaps receiving.
module ring_sender #(
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
    output reg                     finished,
    output wire                    all_gather,

    output wire [RANK_WIDTH-1:0]   chunk,
    input  wire [COUNT_WIDTH-1:0]  chunk_start,
    input  wire [COUNT_WIDTH-1:0]  chunk_beats,

    // Receiver progress: steps completed, and beats written in the step under way
    input  wire [RANK_WIDTH:0]     receiver_steps_done,
    input  wire [COUNT_WIDTH-1:0]  receiver_beats_written,

    output wire [ADDR_WIDTH-1:0]   read_address,
    input  wire [DATA_WIDTH-1:0]   read_data,

    output wire [DATA_WIDTH-1:0]   m_axis_tdata,
    output wire [DATA_WIDTH/8-1:0] m_axis_tkeep,
    output wire                    m_axis_tvalid,
    input  wire                    m_axis_tready,
    output wire                    m_axis_tlast
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

reg  [RANK_WIDTH:0]    step;
reg                    running, run_launched;
wire [RANK_WIDTH:0]    step_count = {ranks, 1'b0} - {{RANK_WIDTH-1{1'b0}}, 2'd2};
wire                   run_busy;
wire [COUNT_WIDTH-1:0] beats_issued;
wire                   stepping = running && step != step_count;
wire                   launch_run = stepping && !run_launched && chunk_beats != 0;

ring_schedule #(.RANK_WIDTH(RANK_WIDTH)) schedule_inst (
    .rank(rank),
    .ranks(ranks),
    .step(step),
    .all_gather(all_gather),
    .send_chunk(chunk),
    .receive_chunk()
);

// Step 0 sends this rank's own data; later steps wait for the receiver's writes.
wire read_allowed = step == 0 || receiver_steps_done >= step
                    || (receiver_steps_done + 1'b1 == step && receiver_beats_written > beats_issued);

buffer_reader #(
    .DATA_WIDTH(DATA_WIDTH),
    .ADDR_WIDTH(ADDR_WIDTH),
    .COUNT_WIDTH(COUNT_WIDTH)
) reader_inst (
    .clk(clk),
    .rst(rst),
    .run_start(launch_run),
    .run_address(chunk_start[ADDR_WIDTH-1:0]),
    .run_beats(chunk_beats),
    .run_final_keep(final_keep),
    .run_ends_vector(chunk_start + chunk_beats == total_beats),
    .run_busy(run_busy),
    .beats_issued(beats_issued),
    .read_allowed(read_allowed),
    .read_address(read_address),
    .read_data(read_data),
    .m_axis_tdata(m_axis_tdata),
    .m_axis_tkeep(m_axis_tkeep),
    .m_axis_tvalid(m_axis_tvalid),
    .m_axis_tready(m_axis_tready),
    .m_axis_tlast(m_axis_tlast)
);

always @(posedge clk) begin
    finished <= 1'b0;
    if (stepping) begin
        if (!run_launched && chunk_beats == 0) begin
            step <= step + 1'b1;  // an empty chunk: nothing to send in this step
        end else if (launch_run) begin
            run_launched <= 1'b1;
        end else if (run_launched && !run_busy) begin
            run_launched <= 1'b0;
            step <= step + 1'b1;
        end
    end else if (running) begin
        running <= 1'b0;
        finished <= 1'b1;
    end
    if (launch) begin
        step <= {RANK_WIDTH+1{1'b0}};
        running <= 1'b1;
        run_launched <= 1'b0;
    end
    if (rst) begin
        running <= 1'b0;
        run_launched <= 1'b0;
        finished <= 1'b0;
    end
end

endmodule

`resetall
