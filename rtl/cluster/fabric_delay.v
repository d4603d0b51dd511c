// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Fixed delay line: every beat leaves exactly LATENCY_CYCLES after it entered, at full rate
`resetall
`timescale 1ns / 1ps
`default_nettype none

// Models the cable and the switch's port-to-port time. Each beat is stored with the cycle it
// arrived in and leaves when that stamp is LATENCY_CYCLES old, so frames are pipelined through the
// delay with their spacing unchanged (throughput is that of the input). Neither side has tready:
// the input is never refused (at most LATENCY_CYCLES beats are ever inside) and the output is
// never stalled, which is what a node's RX port needs.
module fabric_delay #(
    // Width of tdata in bits (a multiple of 8)
    parameter DATA_WIDTH = 64,
    // Width of tkeep in bits: one enable per byte of tdata
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    // Width of tuser in bits
    parameter USER_WIDTH = 1,
    // Cycles from a beat entering to the same beat leaving (at least 2)
    parameter LATENCY_CYCLES = 75
) (
    input  wire                  clk,
    input  wire                  rst,

    input  wire [DATA_WIDTH-1:0] s_axis_tdata,
    input  wire [KEEP_WIDTH-1:0] s_axis_tkeep,
    input  wire                  s_axis_tvalid,
    input  wire                  s_axis_tlast,
    input  wire [USER_WIDTH-1:0] s_axis_tuser,

    output wire [DATA_WIDTH-1:0] m_axis_tdata,
    output wire [KEEP_WIDTH-1:0] m_axis_tkeep,
    output reg                   m_axis_tvalid,
    output wire                  m_axis_tlast,
    output wire [USER_WIDTH-1:0] m_axis_tuser
);

localparam ADDR_WIDTH = $clog2(LATENCY_CYCLES + 1);
localparam DEPTH = 1 << ADDR_WIDTH;
// One bit more than the address: a stamp difference up to DEPTH is never ambiguous
localparam STAMP_WIDTH = ADDR_WIDTH + 1;
localparam BEAT_WIDTH = DATA_WIDTH + KEEP_WIDTH + 1 + USER_WIDTH;
localparam [STAMP_WIDTH-1:0] RELEASE_AGE = LATENCY_CYCLES - 1;

initial begin
    if (DATA_WIDTH % 8 != 0 || KEEP_WIDTH * 8 != DATA_WIDTH) begin
        $error("Error: DATA_WIDTH must be a multiple of 8 and KEEP_WIDTH = DATA_WIDTH/8 (instance %m)");
        $finish;
    end
    if (LATENCY_CYCLES < 2) begin
        $error("Error: LATENCY_CYCLES must be at least 2 (instance %m)");
        $finish;
    end
end

reg [BEAT_WIDTH-1:0]  beat_storage [0:DEPTH-1];
reg [STAMP_WIDTH-1:0] stamp_storage [0:DEPTH-1];
reg [ADDR_WIDTH:0]    write_pointer;
reg [ADDR_WIDTH:0]    read_pointer;
reg [STAMP_WIDTH-1:0] now;
reg [BEAT_WIDTH-1:0]  output_beat;

wire                   stored = write_pointer != read_pointer;
wire [STAMP_WIDTH-1:0] head_age = now - stamp_storage[read_pointer[ADDR_WIDTH-1:0]];
// The output register is loaded one cycle before the beat is due
wire                   release_head = stored && head_age == RELEASE_AGE;

assign {m_axis_tuser, m_axis_tlast, m_axis_tkeep, m_axis_tdata} = output_beat;

always @(posedge clk) begin
    now <= now + 1'b1;
    if (s_axis_tvalid) begin
        beat_storage[write_pointer[ADDR_WIDTH-1:0]] <= {s_axis_tuser, s_axis_tlast, s_axis_tkeep, s_axis_tdata};
        stamp_storage[write_pointer[ADDR_WIDTH-1:0]] <= now;
        write_pointer <= write_pointer + 1'b1;
    end
    m_axis_tvalid <= release_head;
    if (release_head) begin
        output_beat <= beat_storage[read_pointer[ADDR_WIDTH-1:0]];
        read_pointer <= read_pointer + 1'b1;
    end
    if (rst) begin
        now <= {STAMP_WIDTH{1'b0}};
        write_pointer <= {(ADDR_WIDTH+1){1'b0}};
        read_pointer <= {(ADDR_WIDTH+1){1'b0}};
        m_axis_tvalid <= 1'b0;
    end
end

endmodule

`resetall
