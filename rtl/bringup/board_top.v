// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Board top: board_core at the pins of an FPGA board (clock, reset button, UART, LEDs)
`resetall
`timescale 1ns / 1ps
`default_nettype none

// The only module that knows about pins. Port names are generic; a constraints file per board
// (boards/<board>/) ties them to package pins. Everything behind it is the same design that the
// simulations and the virtual board run.
module board_top #(
    // Frequency of the board clock in kHz
    parameter CLOCK_FREQ_KHZ = 25000,
    // UART bit rate
    parameter BAUD_RATE = 115200,
    // Width of the self-test stream in bits
    parameter DATA_WIDTH = 64,
    // First 32 bits of the git commit, stamped by the build
    parameter [31:0] GIT_HASH = 32'd0,
    // 1 when the working tree had uncommitted changes at build time
    parameter GIT_DIRTY = 0,
    // 1 in a simulation build (the virtual board), 0 on a board
    parameter SIMULATION = 0,
    // The engines this build carries beside the self-test (board_core): 0 none, 1 the RDMA
    // engine pair, 2 two DPU nodes, 3 a 2-rank all-reduce ring
    parameter ENGINE_AREA = 0,
    // 1: the self-test (the core's counters and loopback FIFO, the traffic block) beside the
    // engines; 0: only the board's ID block in front of them (board_core)
    parameter SELF_TEST = 1
) (
    input  wire       clk,
    // Active-low reset button
    input  wire       rst_n,
    // UART from the host's serial adapter (into the FPGA)
    input  wire       uart_rx,
    // UART to the host's serial adapter (out of the FPGA)
    output wire       uart_tx,
    // 0: heartbeat, 1: link frame answered, 2: link frame with a bad CRC, 3: UART byte lost
    // (framing error or overrun)
    output wire [3:0] led
);

localparam CLKS_PER_BIT = (CLOCK_FREQ_KHZ * 1000 + BAUD_RATE / 2) / BAUD_RATE;
// About 10 byte times: a frame that stops mid-way is dropped once the link has been quiet that long
localparam LINK_TIMEOUT_CYCLES = CLKS_PER_BIT * 100;
localparam HEARTBEAT_BITS = $clog2(CLOCK_FREQ_KHZ * 1000) - 1;
// LED pulses are stretched to about 1/16 s so a person can see them
localparam STRETCH_BITS = HEARTBEAT_BITS - 3;

initial begin
    if (CLKS_PER_BIT < 4) begin
        $error("Error: CLOCK_FREQ_KHZ / BAUD_RATE gives fewer than 4 clocks per bit (instance %m)");
        $finish;
    end
end

// The button is asynchronous: assert at once, release on a clock edge, hold for 4 cycles.
reg [3:0] reset_shift = 4'hF;
always @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
        reset_shift <= 4'hF;
    end else begin
        reset_shift <= {reset_shift[2:0], 1'b0};
    end
end
wire rst = reset_shift[3];

wire [7:0] rx_tdata, tx_tdata;
wire       rx_tvalid, rx_tready, tx_tvalid, tx_tready;
wire       framing_error, overrun, frame_done, bad_crc;

uart_rx #(
    .CLKS_PER_BIT(CLKS_PER_BIT)
) uart_rx_inst (
    .clk(clk), .rst(rst), .rxd(uart_rx),
    .m_axis_tdata(rx_tdata), .m_axis_tvalid(rx_tvalid), .m_axis_tready(rx_tready),
    .framing_error(framing_error), .overrun(overrun)
);

uart_tx #(
    .CLKS_PER_BIT(CLKS_PER_BIT)
) uart_tx_inst (
    .clk(clk), .rst(rst),
    .s_axis_tdata(tx_tdata), .s_axis_tvalid(tx_tvalid), .s_axis_tready(tx_tready),
    .txd(uart_tx)
);

board_core #(
    .DATA_WIDTH(DATA_WIDTH),
    .LINK_TIMEOUT_CYCLES(LINK_TIMEOUT_CYCLES),
    .GIT_HASH(GIT_HASH),
    .GIT_DIRTY(GIT_DIRTY),
    .SIMULATION(SIMULATION),
    .CLOCK_FREQ_KHZ(CLOCK_FREQ_KHZ),
    .ENGINE_AREA(ENGINE_AREA),
    .SELF_TEST(SELF_TEST)
) core_inst (
    .clk(clk), .rst(rst),
    .s_link_tdata(rx_tdata), .s_link_tvalid(rx_tvalid), .s_link_tready(rx_tready),
    .m_link_tdata(tx_tdata), .m_link_tvalid(tx_tvalid), .m_link_tready(tx_tready),
    .link_frame_done(frame_done), .link_bad_crc(bad_crc)
);

reg [HEARTBEAT_BITS-1:0] heartbeat;
reg [STRETCH_BITS-1:0]   frame_stretch, crc_stretch, byte_lost_stretch;

always @(posedge clk) begin
    heartbeat <= heartbeat + 1'b1;
    frame_stretch <= frame_done ? {STRETCH_BITS{1'b1}} : frame_stretch - (frame_stretch != 0);
    crc_stretch <= bad_crc ? {STRETCH_BITS{1'b1}} : crc_stretch - (crc_stretch != 0);
    byte_lost_stretch <= framing_error || overrun ? {STRETCH_BITS{1'b1}} : byte_lost_stretch - (byte_lost_stretch != 0);
    if (rst) begin
        heartbeat <= 0;
        frame_stretch <= 0;
        crc_stretch <= 0;
        byte_lost_stretch <= 0;
    end
end

assign led = {byte_lost_stretch != 0, crc_stretch != 0, frame_stretch != 0, heartbeat[HEARTBEAT_BITS-1]};

endmodule

`resetall
