// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// ID block: the first register block at address 0, identifying the bitstream and its build
`resetall
`timescale 1ns / 1ps
`default_nettype none

module id_block #(
    // Byte address of the next block in the register-block chain (0: none)
    parameter [31:0] NEXT_BLOCK_ADDRESS = 32'd0,
    // First 32 bits of the git commit the design was built from
    parameter [31:0] GIT_HASH = 32'd0,
    // 1 when the working tree had uncommitted changes at build time
    parameter GIT_DIRTY = 0,
    // 1 in a simulation build, 0 in a board build
    parameter SIMULATION = 0,
    // Bytes per beat of the network-facing AXI4-Stream
    parameter STREAM_BYTES = 8,
    // Nominal frequency of clk in kHz
    parameter CLOCK_FREQ_KHZ = 250000
) (
    input  wire                  clk,
    input  wire                  rst,

    input  wire [11:0]           s_axil_awaddr,
    input  wire [2:0]            s_axil_awprot,
    input  wire                  s_axil_awvalid,
    output wire                  s_axil_awready,
    input  wire [31:0]           s_axil_wdata,
    input  wire [3:0]            s_axil_wstrb,
    input  wire                  s_axil_wvalid,
    output wire                  s_axil_wready,
    output wire [1:0]            s_axil_bresp,
    output wire                  s_axil_bvalid,
    input  wire                  s_axil_bready,
    input  wire [11:0]           s_axil_araddr,
    input  wire [2:0]            s_axil_arprot,
    input  wire                  s_axil_arvalid,
    output wire                  s_axil_arready,
    output wire [31:0]           s_axil_rdata,
    output wire [1:0]            s_axil_rresp,
    output wire                  s_axil_rvalid,
    input  wire                  s_axil_rready
);

initial begin
    if (STREAM_BYTES < 1 || STREAM_BYTES > 255) begin
        $error("Error: STREAM_BYTES must be 1 to 255 (instance %m)");
        $finish;
    end
end

id_block_csr csr_inst (
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
    .hwif_in_git_hash_value(GIT_HASH),
    .hwif_in_build_options_simulation(SIMULATION != 0),
    .hwif_in_build_options_git_dirty(GIT_DIRTY != 0),
    .hwif_in_build_options_stream_bytes(STREAM_BYTES[7:0]),
    .hwif_in_clock_freq_khz_khz(CLOCK_FREQ_KHZ[31:0])
);

endmodule

`resetall
