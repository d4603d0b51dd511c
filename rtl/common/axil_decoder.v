// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// AXI4-Lite decoder: one master to M_COUNT register blocks, one equal window each, one access at a time
`resetall
`timescale 1ns / 1ps
`default_nettype none

module axil_decoder #(
    // Number of register blocks behind the decoder
    parameter M_COUNT = 2,
    // Width of the master's byte address
    parameter ADDR_WIDTH = 16,
    // Each block decodes 2**WINDOW_ADDR_WIDTH bytes; block i starts at i * 2**WINDOW_ADDR_WIDTH
    parameter WINDOW_ADDR_WIDTH = 12
) (
    input  wire                                 clk,
    input  wire                                 rst,

    input  wire [ADDR_WIDTH-1:0]                s_axil_awaddr,
    input  wire [2:0]                           s_axil_awprot,
    input  wire                                 s_axil_awvalid,
    output wire                                 s_axil_awready,
    input  wire [31:0]                          s_axil_wdata,
    input  wire [3:0]                           s_axil_wstrb,
    input  wire                                 s_axil_wvalid,
    output wire                                 s_axil_wready,
    output reg  [1:0]                           s_axil_bresp,
    output wire                                 s_axil_bvalid,
    input  wire                                 s_axil_bready,
    input  wire [ADDR_WIDTH-1:0]                s_axil_araddr,
    input  wire [2:0]                           s_axil_arprot,
    input  wire                                 s_axil_arvalid,
    output wire                                 s_axil_arready,
    output reg  [31:0]                          s_axil_rdata,
    output reg  [1:0]                           s_axil_rresp,
    output wire                                 s_axil_rvalid,
    input  wire                                 s_axil_rready,

    output wire [M_COUNT*WINDOW_ADDR_WIDTH-1:0] m_axil_awaddr,
    output wire [M_COUNT*3-1:0]                 m_axil_awprot,
    output wire [M_COUNT-1:0]                   m_axil_awvalid,
    input  wire [M_COUNT-1:0]                   m_axil_awready,
    output wire [M_COUNT*32-1:0]                m_axil_wdata,
    output wire [M_COUNT*4-1:0]                 m_axil_wstrb,
    output wire [M_COUNT-1:0]                   m_axil_wvalid,
    input  wire [M_COUNT-1:0]                   m_axil_wready,
    input  wire [M_COUNT*2-1:0]                 m_axil_bresp,
    input  wire [M_COUNT-1:0]                   m_axil_bvalid,
    output wire [M_COUNT-1:0]                   m_axil_bready,
    output wire [M_COUNT*WINDOW_ADDR_WIDTH-1:0] m_axil_araddr,
    output wire [M_COUNT*3-1:0]                 m_axil_arprot,
    output wire [M_COUNT-1:0]                   m_axil_arvalid,
    input  wire [M_COUNT-1:0]                   m_axil_arready,
    input  wire [M_COUNT*32-1:0]                m_axil_rdata,
    input  wire [M_COUNT*2-1:0]                 m_axil_rresp,
    input  wire [M_COUNT-1:0]                   m_axil_rvalid,
    output wire [M_COUNT-1:0]                   m_axil_rready
);

localparam INDEX_WIDTH = ADDR_WIDTH - WINDOW_ADDR_WIDTH;
localparam [31:0] BLOCK_COUNT = M_COUNT;
localparam [1:0] RESPONSE_DECERR = 2'b11;

initial begin
    if (INDEX_WIDTH < 1 || (1 << INDEX_WIDTH) < M_COUNT) begin
        $error("Error: ADDR_WIDTH - WINDOW_ADDR_WIDTH must leave room for M_COUNT windows (instance %m)");
        $finish;
    end
end

localparam [2:0] STATE_IDLE = 3'd0;
localparam [2:0] STATE_READ_REQUEST = 3'd1;
localparam [2:0] STATE_READ_WAIT = 3'd2;
localparam [2:0] STATE_READ_RESPONSE = 3'd3;
localparam [2:0] STATE_WRITE_REQUEST = 3'd4;
localparam [2:0] STATE_WRITE_WAIT = 3'd5;
localparam [2:0] STATE_WRITE_RESPONSE = 3'd6;

reg [2:0]                   state;
reg                         last_was_read;
reg [WINDOW_ADDR_WIDTH-1:0] window_address;
reg [INDEX_WIDTH-1:0]       target;
reg [2:0]                   protection;
reg [31:0]                  write_data;
reg [3:0]                   write_strobe;
reg                         address_sent;
reg                         data_sent;

wire write_offered = s_axil_awvalid && s_axil_wvalid;
// Alternate between reads and writes when both wait, so neither can starve the other.
wire take_read = state == STATE_IDLE && s_axil_arvalid && (!write_offered || !last_was_read);
wire take_write = state == STATE_IDLE && write_offered && !take_read;

wire [INDEX_WIDTH-1:0] read_target = s_axil_araddr[ADDR_WIDTH-1:WINDOW_ADDR_WIDTH];
wire [INDEX_WIDTH-1:0] write_target = s_axil_awaddr[ADDR_WIDTH-1:WINDOW_ADDR_WIDTH];
wire [M_COUNT-1:0]     target_select = {{M_COUNT-1{1'b0}}, 1'b1} << target;

// The selected block's response signals; only read in states where target < M_COUNT.
wire        target_arready = |(m_axil_arready & target_select);
wire        target_rvalid = |(m_axil_rvalid & target_select);
wire        target_awready = |(m_axil_awready & target_select);
wire        target_wready = |(m_axil_wready & target_select);
wire        target_bvalid = |(m_axil_bvalid & target_select);
reg  [31:0] target_rdata;
reg  [1:0]  target_rresp;
reg  [1:0]  target_bresp;
integer     block_index;

always @* begin
    target_rdata = 32'd0;
    target_rresp = 2'b00;
    target_bresp = 2'b00;
    for (block_index = 0; block_index < M_COUNT; block_index = block_index + 1) begin
        if (target_select[block_index]) begin
            target_rdata = m_axil_rdata[block_index*32 +: 32];
            target_rresp = m_axil_rresp[block_index*2 +: 2];
            target_bresp = m_axil_bresp[block_index*2 +: 2];
        end
    end
end

assign s_axil_arready = take_read;
assign s_axil_awready = take_write;
assign s_axil_wready = take_write;
assign s_axil_rvalid = state == STATE_READ_RESPONSE;
assign s_axil_bvalid = state == STATE_WRITE_RESPONSE;

assign m_axil_awaddr = {M_COUNT{window_address}};
assign m_axil_araddr = {M_COUNT{window_address}};
assign m_axil_awprot = {M_COUNT{protection}};
assign m_axil_arprot = {M_COUNT{protection}};
assign m_axil_wdata = {M_COUNT{write_data}};
assign m_axil_wstrb = {M_COUNT{write_strobe}};
assign m_axil_arvalid = state == STATE_READ_REQUEST ? target_select : {M_COUNT{1'b0}};
assign m_axil_rready = state == STATE_READ_WAIT ? target_select : {M_COUNT{1'b0}};
assign m_axil_awvalid = state == STATE_WRITE_REQUEST && !address_sent ? target_select : {M_COUNT{1'b0}};
assign m_axil_wvalid = state == STATE_WRITE_REQUEST && !data_sent ? target_select : {M_COUNT{1'b0}};
assign m_axil_bready = state == STATE_WRITE_WAIT ? target_select : {M_COUNT{1'b0}};

always @(posedge clk) begin
    case (state)
        STATE_IDLE: begin
            if (take_read) begin
                last_was_read <= 1'b1;
                window_address <= s_axil_araddr[WINDOW_ADDR_WIDTH-1:0];
                protection <= s_axil_arprot;
                target <= read_target;
                if ({{32-INDEX_WIDTH{1'b0}}, read_target} < BLOCK_COUNT) begin
                    state <= STATE_READ_REQUEST;
                end else begin
                    s_axil_rdata <= 32'd0;
                    s_axil_rresp <= RESPONSE_DECERR;
                    state <= STATE_READ_RESPONSE;
                end
            end else if (take_write) begin
                last_was_read <= 1'b0;
                window_address <= s_axil_awaddr[WINDOW_ADDR_WIDTH-1:0];
                protection <= s_axil_awprot;
                write_data <= s_axil_wdata;
                write_strobe <= s_axil_wstrb;
                target <= write_target;
                address_sent <= 1'b0;
                data_sent <= 1'b0;
                if ({{32-INDEX_WIDTH{1'b0}}, write_target} < BLOCK_COUNT) begin
                    state <= STATE_WRITE_REQUEST;
                end else begin
                    s_axil_bresp <= RESPONSE_DECERR;
                    state <= STATE_WRITE_RESPONSE;
                end
            end
        end
        STATE_READ_REQUEST: begin
            if (target_arready) begin
                state <= STATE_READ_WAIT;
            end
        end
        STATE_READ_WAIT: begin
            if (target_rvalid) begin
                s_axil_rdata <= target_rdata;
                s_axil_rresp <= target_rresp;
                state <= STATE_READ_RESPONSE;
            end
        end
        STATE_READ_RESPONSE: begin
            if (s_axil_rready) begin
                state <= STATE_IDLE;
            end
        end
        STATE_WRITE_REQUEST: begin
            if (target_awready) begin
                address_sent <= 1'b1;
            end
            if (target_wready) begin
                data_sent <= 1'b1;
            end
            if ((address_sent || target_awready) && (data_sent || target_wready)) begin
                state <= STATE_WRITE_WAIT;
            end
        end
        STATE_WRITE_WAIT: begin
            if (target_bvalid) begin
                s_axil_bresp <= target_bresp;
                state <= STATE_WRITE_RESPONSE;
            end
        end
        STATE_WRITE_RESPONSE: begin
            if (s_axil_bready) begin
                state <= STATE_IDLE;
            end
        end
        default: begin
            state <= STATE_IDLE;
        end
    endcase

    if (rst) begin
        state <= STATE_IDLE;
        last_was_read <= 1'b0;
    end
end

endmodule

`resetall
