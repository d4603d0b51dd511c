// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// PCIe completer to AXI4-Lite: BAR memory reads and writes from the UltraScale+ CQ interface, completions on CC
`resetall
`timescale 1ns / 1ps
`default_nettype none

// The host's register accesses arrive as completer requests (DWORD-aligned mode, no straddling)
// and leave as AXI4-Lite accesses, one per dword, byte strobes from the request's first and last
// byte enables. A memory read is answered with one completion carrying the data (AXI errors give
// completion status Completer Abort). Requests this bridge does not carry (I/O, atomics,
// locked reads, reads of more than MAX_DWORDS dwords) are answered Unsupported Request when
// they are non-posted and dropped when posted (PCIe: no completion for a posted request); each
// is counted. Descriptor layouts: Xilinx PG213 (UltraScale+ PCIe, DWORD-aligned mode), as
// cocotbext-pcie's UltraScalePlusPcieDevice drives and reads them.
module pcie_us_cq_axil #(
    // Width of the CQ and CC streams in bits: 256 or 512
    parameter DATA_WIDTH = 512,
    // Width of the AXI4-Lite address (the BAR offset)
    parameter ADDR_WIDTH = 16,
    // The longest read carried (dwords); a 64-bit register read takes 2
    parameter MAX_DWORDS = 2
) (
    input  wire                          clk,
    input  wire                          rst,

    // Completer requests (from the hard IP)
    input  wire [DATA_WIDTH-1:0]         s_axis_cq_tdata,
    input  wire [DATA_WIDTH/32-1:0]      s_axis_cq_tkeep,
    input  wire                          s_axis_cq_tvalid,
    output wire                          s_axis_cq_tready,
    input  wire                          s_axis_cq_tlast,
    input  wire [CQ_USER_WIDTH-1:0]      s_axis_cq_tuser,

    // Completer completions (to the hard IP)
    output reg  [DATA_WIDTH-1:0]         m_axis_cc_tdata,
    output reg  [DATA_WIDTH/32-1:0]      m_axis_cc_tkeep,
    output reg                           m_axis_cc_tvalid,
    input  wire                          m_axis_cc_tready,
    output wire                          m_axis_cc_tlast,
    output reg  [CC_USER_WIDTH-1:0]      m_axis_cc_tuser,

    // Register bus
    output reg  [ADDR_WIDTH-1:0]         m_axil_awaddr,
    output wire [2:0]                    m_axil_awprot,
    output reg                           m_axil_awvalid,
    input  wire                          m_axil_awready,
    output reg  [31:0]                   m_axil_wdata,
    output reg  [3:0]                    m_axil_wstrb,
    output reg                           m_axil_wvalid,
    input  wire                          m_axil_wready,
    input  wire [1:0]                    m_axil_bresp,
    input  wire                          m_axil_bvalid,
    output wire                          m_axil_bready,
    output reg  [ADDR_WIDTH-1:0]         m_axil_araddr,
    output wire [2:0]                    m_axil_arprot,
    output reg                           m_axil_arvalid,
    input  wire                          m_axil_arready,
    input  wire [31:0]                   m_axil_rdata,
    input  wire [1:0]                    m_axil_rresp,
    input  wire                          m_axil_rvalid,
    output wire                          m_axil_rready,

    // One cycle per request dropped or answered Unsupported Request
    output reg                           event_unsupported
);

localparam CQ_USER_WIDTH = DATA_WIDTH == 512 ? 183 : 88;
localparam CC_USER_WIDTH = DATA_WIDTH == 512 ? 81 : 33;
localparam KEEP_WIDTH = DATA_WIDTH / 32;
localparam [3:0] REQ_MEM_READ = 4'b0000, REQ_MEM_WRITE = 4'b0001;
localparam [2:0] STATUS_SUCCESS = 3'b000, STATUS_UNSUPPORTED = 3'b001, STATUS_ABORT = 3'b100;

initial begin
    if (DATA_WIDTH != 256 && DATA_WIDTH != 512) begin
        $error("Error: DATA_WIDTH must be 256 or 512 (instance %m)");
        $finish;
    end
    // The descriptor (4 dwords) and the longest write carried fit the first beat
    if (MAX_DWORDS < 1 || 4 + MAX_DWORDS > KEEP_WIDTH || 3 + MAX_DWORDS > KEEP_WIDTH) begin
        $error("Error: MAX_DWORDS must be 1 or more and fit one beat behind the descriptor (instance %m)");
        $finish;
    end
end

assign m_axil_awprot = 3'b000;
assign m_axil_arprot = 3'b000;
assign m_axil_bready = 1'b1;
assign m_axil_rready = 1'b1;
assign m_axis_cc_tlast = 1'b1;  // every completion is one beat

// ---- The request being served ----

localparam [2:0] S_IDLE = 3'd0, S_WRITE = 3'd1, S_WRITE_RESPONSE = 3'd2, S_READ = 3'd3, S_READ_DATA = 3'd4,
                 S_COMPLETE = 3'd5, S_DRAIN = 3'd6;

reg [2:0]  state;
reg [63:0] request_address;
reg [10:0] request_dwords;
reg [3:0]  request_type;
reg [15:0] request_id;
reg [7:0]  request_tag;
reg [2:0]  request_tc, request_attr;
reg [3:0]  first_be, last_be;
reg [5:0]  bar_aperture;
reg [32*MAX_DWORDS-1:0] payload;
reg [10:0] dword_index;
reg [2:0]  completion_status;

wire [63:0] descriptor_address = {s_axis_cq_tdata[63:2], 2'b00};
wire [10:0] descriptor_dwords = s_axis_cq_tdata[74:64];
wire [3:0]  descriptor_type = s_axis_cq_tdata[78:75];
wire [3:0]  descriptor_first_be = s_axis_cq_tuser[3:0];
wire [3:0]  descriptor_last_be = DATA_WIDTH == 512 ? s_axis_cq_tuser[11:8] : s_axis_cq_tuser[7:4];
wire        carried_read = descriptor_type == REQ_MEM_READ && descriptor_dwords <= MAX_DWORDS && descriptor_dwords != 0;
wire        carried_write = descriptor_type == REQ_MEM_WRITE && descriptor_dwords <= MAX_DWORDS
                          && descriptor_dwords != 0 && s_axis_cq_tlast;
// Memory writes are posted; everything else the host sends a completer waits for an answer
wire        posted = descriptor_type == REQ_MEM_WRITE;

// The BAR offset: the address within the aperture the IP reports
wire [63:0] aperture_mask = (64'd1 << bar_aperture) - 64'd1;
wire [63:0] dword_address = (request_address & aperture_mask) + {51'd0, dword_index, 2'b00};
wire        last_dword = dword_index + 11'd1 == request_dwords;
wire [3:0]  dword_strobe = dword_index == 11'd0 ? first_be : (last_dword ? last_be : 4'hF);

assign s_axis_cq_tready = state == S_IDLE || state == S_DRAIN;

// Completion fields (PCIe: byte count and lower address from the byte enables)
function [1:0] first_byte(input [3:0] enables);
    begin
        first_byte = enables[0] ? 2'd0 : enables[1] ? 2'd1 : enables[2] ? 2'd2 : enables[3] ? 2'd3 : 2'd0;
    end
endfunction

function [2:0] bytes_to_last(input [3:0] enables);
    // One past the last enabled byte
    begin
        bytes_to_last = enables[3] ? 3'd4 : enables[2] ? 3'd3 : enables[1] ? 3'd2 : enables[0] ? 3'd1 : 3'd0;
    end
endfunction

wire [12:0] read_byte_count = request_dwords == 11'd1
    ? (first_be == 4'h0 ? 13'd1 : {10'd0, bytes_to_last(first_be)} - {11'd0, first_byte(first_be)})
    : {request_dwords, 2'b00} - {11'd0, first_byte(first_be)} - (13'd4 - {10'd0, bytes_to_last(last_be)});
wire [6:0]  lower_address = {request_address[6:2], first_byte(first_be)};
// The completion's dwords: the 3-dword descriptor and the read data of a successful read
wire [31:0] completion_dwords = 32'd3 + (completion_status == STATUS_SUCCESS ? {21'd0, request_dwords} : 32'd0);

integer lane;
always @(posedge clk) begin
    event_unsupported <= 1'b0;
    if (m_axil_awvalid && m_axil_awready) begin
        m_axil_awvalid <= 1'b0;
    end
    if (m_axil_wvalid && m_axil_wready) begin
        m_axil_wvalid <= 1'b0;
    end
    if (m_axil_arvalid && m_axil_arready) begin
        m_axil_arvalid <= 1'b0;
    end
    if (m_axis_cc_tvalid && m_axis_cc_tready) begin
        m_axis_cc_tvalid <= 1'b0;
    end

    case (state)
        S_IDLE: begin
            if (s_axis_cq_tvalid) begin
                request_address <= descriptor_address;
                request_dwords <= descriptor_dwords;
                request_type <= descriptor_type;
                request_id <= s_axis_cq_tdata[95:80];
                request_tag <= s_axis_cq_tdata[103:96];
                request_tc <= s_axis_cq_tdata[123:121];
                request_attr <= s_axis_cq_tdata[126:124];
                bar_aperture <= s_axis_cq_tdata[120:115];
                first_be <= descriptor_first_be;
                last_be <= descriptor_last_be;
                payload <= s_axis_cq_tdata[128 +: 32*MAX_DWORDS];
                dword_index <= 11'd0;
                completion_status <= STATUS_SUCCESS;
                if (carried_write) begin
                    state <= S_WRITE;
                end else if (carried_read) begin
                    state <= S_READ;
                end else begin
                    event_unsupported <= 1'b1;
                    completion_status <= STATUS_UNSUPPORTED;
                    // A longer request keeps its later beats: take them before answering
                    state <= !s_axis_cq_tlast ? S_DRAIN : (posted ? S_IDLE : S_COMPLETE);
                end
            end
        end
        S_DRAIN: begin
            if (s_axis_cq_tvalid && s_axis_cq_tlast) begin
                state <= request_type == REQ_MEM_WRITE ? S_IDLE : S_COMPLETE;
            end
        end
        S_WRITE: begin
            m_axil_awaddr <= dword_address[ADDR_WIDTH-1:0];
            m_axil_wdata <= payload[32*dword_index[$clog2(MAX_DWORDS+1)-1:0] +: 32];
            m_axil_wstrb <= dword_strobe;
            m_axil_awvalid <= 1'b1;
            m_axil_wvalid <= 1'b1;
            state <= S_WRITE_RESPONSE;
        end
        S_WRITE_RESPONSE: begin
            if (m_axil_bvalid) begin
                dword_index <= dword_index + 11'd1;
                state <= last_dword ? S_IDLE : S_WRITE;
            end
        end
        S_READ: begin
            m_axil_araddr <= dword_address[ADDR_WIDTH-1:0];
            m_axil_arvalid <= 1'b1;
            state <= S_READ_DATA;
        end
        S_READ_DATA: begin
            if (m_axil_rvalid) begin
                payload[32*dword_index[$clog2(MAX_DWORDS+1)-1:0] +: 32] <= m_axil_rdata;
                if (m_axil_rresp[1]) begin
                    completion_status <= STATUS_ABORT;
                end
                dword_index <= dword_index + 11'd1;
                state <= last_dword ? S_COMPLETE : S_READ;
            end
        end
        S_COMPLETE: begin
            if (!m_axis_cc_tvalid) begin
                m_axis_cc_tdata <= {DATA_WIDTH{1'b0}};
                m_axis_cc_tdata[6:0] <= completion_status == STATUS_SUCCESS ? lower_address : 7'd0;
                m_axis_cc_tdata[28:16] <= completion_status == STATUS_SUCCESS ? read_byte_count : 13'd0;
                m_axis_cc_tdata[42:32] <= completion_status == STATUS_SUCCESS ? request_dwords : 11'd0;
                m_axis_cc_tdata[45:43] <= completion_status;
                m_axis_cc_tdata[63:48] <= request_id;
                m_axis_cc_tdata[71:64] <= request_tag;
                m_axis_cc_tdata[91:89] <= request_tc;
                m_axis_cc_tdata[94:92] <= request_attr;
                m_axis_cc_tdata[96 +: 32*MAX_DWORDS] <= payload;
                for (lane = 0; lane < KEEP_WIDTH; lane = lane + 1) begin
                    m_axis_cc_tkeep[lane] <= lane < completion_dwords;
                end
                // Start and end of packet in segment 0 (the 512-bit interface asks for them)
                m_axis_cc_tuser <= {CC_USER_WIDTH{1'b0}};
                if (DATA_WIDTH == 512) begin
                    m_axis_cc_tuser[0] <= 1'b1;
                    m_axis_cc_tuser[6] <= 1'b1;
                    m_axis_cc_tuser[11:8] <= 4'd2 + (completion_status == STATUS_SUCCESS ? request_dwords[3:0] : 4'd0);
                end
                m_axis_cc_tvalid <= 1'b1;
                state <= S_IDLE;
            end
        end
        default: state <= S_IDLE;
    endcase

    if (rst) begin
        state <= S_IDLE;
        m_axil_awvalid <= 1'b0;
        m_axil_wvalid <= 1'b0;
        m_axil_arvalid <= 1'b0;
        m_axis_cc_tvalid <= 1'b0;
    end
end

// Model-read outputs hold known values from time 0, before any reset (cocotbext-pcie samples
// them from the first clock)
initial begin
    m_axis_cc_tvalid = 1'b0;
    m_axis_cc_tdata = {DATA_WIDTH{1'b0}};
    m_axis_cc_tkeep = {KEEP_WIDTH{1'b0}};
    m_axis_cc_tuser = {CC_USER_WIDTH{1'b0}};
end

endmodule

`resetall
