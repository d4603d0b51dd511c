// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Traffic block: generator and checker behind their SystemRDL CSRs, for built-in self-test of a stream path
`resetall
`timescale 1ns / 1ps
`default_nettype none

// m_axis feeds the path under test and s_axis takes what comes out of it. Settings are latched
// at start, so register writes during a run cannot make generator and checker disagree.
module traffic_block #(
    // Byte address of the next block in the register-block chain (0: none)
    parameter [31:0] NEXT_BLOCK_ADDRESS = 32'd0,
    // Width of the stream's tdata in bits (a multiple of 32)
    parameter DATA_WIDTH = 64
) (
    input  wire                    clk,
    input  wire                    rst,

    input  wire [12:0]             s_axil_awaddr,
    input  wire [2:0]              s_axil_awprot,
    input  wire                    s_axil_awvalid,
    output wire                    s_axil_awready,
    input  wire [31:0]             s_axil_wdata,
    input  wire [3:0]              s_axil_wstrb,
    input  wire                    s_axil_wvalid,
    output wire                    s_axil_wready,
    output wire [1:0]              s_axil_bresp,
    output wire                    s_axil_bvalid,
    input  wire                    s_axil_bready,
    input  wire [12:0]             s_axil_araddr,
    input  wire [2:0]              s_axil_arprot,
    input  wire                    s_axil_arvalid,
    output wire                    s_axil_arready,
    output wire [31:0]             s_axil_rdata,
    output wire [1:0]              s_axil_rresp,
    output wire                    s_axil_rvalid,
    input  wire                    s_axil_rready,

    output wire [DATA_WIDTH-1:0]   m_axis_tdata,
    output wire [DATA_WIDTH/8-1:0] m_axis_tkeep,
    output wire                    m_axis_tvalid,
    input  wire                    m_axis_tready,
    output wire                    m_axis_tlast,

    input  wire [DATA_WIDTH-1:0]   s_axis_tdata,
    input  wire [DATA_WIDTH/8-1:0] s_axis_tkeep,
    input  wire                    s_axis_tvalid,
    output wire                    s_axis_tready,
    input  wire                    s_axis_tlast
);

initial begin
    if (DATA_WIDTH % 32 != 0 || DATA_WIDTH < 32 || DATA_WIDTH > 1024) begin
        $error("Error: DATA_WIDTH must be a multiple of 32 from 32 to 1024 (instance %m)");
        $finish;
    end
end

localparam DATA_BYTES = DATA_WIDTH / 8;

wire        start, stop, inject_error;
wire [31:0] frames_setting, seed_setting;
wire [15:0] beats_setting;
wire [7:0]  gap_setting;

reg  [31:0] run_frames, run_seed;
reg  [15:0] run_beats;
reg  [7:0]  run_gap;
reg         run_started, measure_started, measure_stopped;
reg  [31:0] cycles;

wire        sending, frame_done;
wire [31:0] frames_sent, frames_received, frames_bad, sequence_errors, beats_received, bad_beats;

traffic_generator #(
    .DATA_WIDTH(DATA_WIDTH)
) generator_inst (
    .clk(clk),
    .rst(rst),
    .start(start),
    .stop(stop),
    .inject_error(inject_error),
    .frame_count(start ? frames_setting : run_frames),
    .frame_beats(start ? beats_setting : run_beats),
    .seed(run_seed),
    .gap_cycles(run_gap),
    .m_axis_tdata(m_axis_tdata),
    .m_axis_tkeep(m_axis_tkeep),
    .m_axis_tvalid(m_axis_tvalid),
    .m_axis_tready(m_axis_tready),
    .m_axis_tlast(m_axis_tlast),
    .sending(sending),
    .frames_sent(frames_sent)
);

traffic_checker #(
    .DATA_WIDTH(DATA_WIDTH)
) checker_inst (
    .clk(clk),
    .rst(rst),
    .start(start),
    .frame_beats(run_beats),
    .seed(run_seed),
    .s_axis_tdata(s_axis_tdata),
    .s_axis_tkeep(s_axis_tkeep),
    .s_axis_tvalid(s_axis_tvalid),
    .s_axis_tready(s_axis_tready),
    .s_axis_tlast(s_axis_tlast),
    .frame_done(frame_done),
    .frames_received(frames_received),
    .frames_bad(frames_bad),
    .sequence_errors(sequence_errors),
    .beats_received(beats_received),
    .bad_beats(bad_beats)
);

// CYCLES spans the first beat sent to the last beat of the run's last frame checked, both included.
wire first_beat_sent = m_axis_tvalid && m_axis_tready && !measure_started;
wire last_frame_checked = frame_done && frames_received + 32'd1 == run_frames;

always @(posedge clk) begin
    if ((measure_started || first_beat_sent) && !measure_stopped) begin
        cycles <= cycles + 32'd1;
    end
    if (first_beat_sent) begin
        measure_started <= 1'b1;
    end
    if (last_frame_checked && measure_started) begin
        measure_stopped <= 1'b1;
    end
    if (start) begin
        run_frames <= frames_setting;
        run_beats <= beats_setting;
        run_seed <= seed_setting;
        run_gap <= gap_setting;
        run_started <= 1'b1;
        measure_started <= 1'b0;
        measure_stopped <= 1'b0;
        cycles <= 32'd0;
    end
    if (rst) begin
        run_frames <= 32'd0;
        run_beats <= 16'd0;
        run_seed <= 32'd0;
        run_gap <= 8'd0;
        run_started <= 1'b0;
        measure_started <= 1'b0;
        measure_stopped <= 1'b0;
        cycles <= 32'd0;
    end
end

traffic_block_csr csr_inst (
    .clk(clk),
    .rst(rst),
    .s_axil_awready(s_axil_awready),
    .s_axil_awvalid(s_axil_awvalid),
    .s_axil_awaddr(s_axil_awaddr),
    .s_axil_awprot(s_axil_awprot),
    .s_axil_wready(s_axil_wready),
    .s_axil_wvalid(s_axil_wvalid),
    .s_axil_wdata(s_axil_wdata),
    .s_axil_wstrb(s_axil_wstrb),
    .s_axil_bready(s_axil_bready),
    .s_axil_bvalid(s_axil_bvalid),
    .s_axil_bresp(s_axil_bresp),
    .s_axil_arready(s_axil_arready),
    .s_axil_arvalid(s_axil_arvalid),
    .s_axil_araddr(s_axil_araddr),
    .s_axil_arprot(s_axil_arprot),
    .s_axil_rready(s_axil_rready),
    .s_axil_rvalid(s_axil_rvalid),
    .s_axil_rdata(s_axil_rdata),
    .s_axil_rresp(s_axil_rresp),
    .hwif_in_block_next_address(NEXT_BLOCK_ADDRESS),
    .hwif_in_caps_data_bytes(DATA_BYTES[7:0]),
    .hwif_out_ctrl_start(start),
    .hwif_out_ctrl_stop(stop),
    .hwif_out_ctrl_inject_error(inject_error),
    .hwif_out_frames_count(frames_setting),
    .hwif_out_frame_beats_beats(beats_setting),
    .hwif_out_seed_value(seed_setting),
    .hwif_out_gap_cycles(gap_setting),
    .hwif_in_status_sending(sending),
    .hwif_in_status_done(run_started && !sending && frames_received >= run_frames),
    .hwif_in_frames_sent_value(frames_sent),
    .hwif_in_frames_received_value(frames_received),
    .hwif_in_frames_bad_value(frames_bad),
    .hwif_in_sequence_errors_value(sequence_errors),
    .hwif_in_beats_received_value(beats_received),
    .hwif_in_bad_beats_value(bad_beats),
    .hwif_in_cycles_value(cycles)
);

endmodule

`resetall
