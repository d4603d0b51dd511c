// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// MSI-X: the vector table and pending bits in a BAR window, interrupts sent through the UltraScale+ configuration interface
`resetall
`timescale 1ns / 1ps
`default_nettype none

// PCIe MSI-X as the base specification defines it, in the IP's "external table" arrangement:
// - Table: VECTORS entries of 16 bytes at window offset 0 (message address low and high, message
//   data, vector control with bit 0 the per-vector mask, set at reset). PBA: one pending bit
//   per vector at window offset 0x1000, read-only.
// - An interrupt request sets its vector's pending bit. A pending vector is sent when MSI-X is
//   enabled and neither the function nor the vector is masked; the bit clears once the IP says
//   the message went out (a failed send keeps it pending). So a masked vector's interrupts wait,
//   visible in the PBA, and go out as soon as it is unmasked: nothing is lost.
// - The message is raised with cfg_interrupt_msix_int for exactly one cycle, address and data held
//   until cfg_interrupt_msix_sent or _fail.
module pcie_msix #(
    // Table entries and PBA bits (a power of two, 2 to 2048 as MSI-X allows)
    parameter VECTORS = 32,
    // Window of the table (offset 0) and the PBA (offset 0x1000)
    parameter ADDR_WIDTH = 13
) (
    input  wire                   clk,
    input  wire                   rst,

    input  wire [ADDR_WIDTH-1:0]  s_axil_awaddr,
    input  wire                   s_axil_awvalid,
    output wire                   s_axil_awready,
    input  wire [31:0]            s_axil_wdata,
    input  wire [3:0]             s_axil_wstrb,
    input  wire                   s_axil_wvalid,
    output wire                   s_axil_wready,
    output wire [1:0]             s_axil_bresp,
    output reg                    s_axil_bvalid,
    input  wire                   s_axil_bready,
    input  wire [ADDR_WIDTH-1:0]  s_axil_araddr,
    input  wire                   s_axil_arvalid,
    output wire                   s_axil_arready,
    output reg  [31:0]            s_axil_rdata,
    output wire [1:0]             s_axil_rresp,
    output reg                    s_axil_rvalid,
    input  wire                   s_axil_rready,

    // One cycle: the vector wants an interrupt
    input  wire                   request_valid,
    input  wire [$clog2(VECTORS)-1:0] request_vector,

    // The IP's configuration interface (function 0)
    input  wire                   msix_enable,
    input  wire                   msix_function_mask,
    output reg  [63:0]            msix_address,
    output reg  [31:0]            msix_data,
    output reg                    msix_int,
    input  wire                   msix_sent,
    input  wire                   msix_fail
);

localparam INDEX_WIDTH = $clog2(VECTORS);
localparam [ADDR_WIDTH-1:0] PBA_OFFSET = 'h1000;

initial begin
    if (VECTORS < 2 || VECTORS > 2048 || (VECTORS & (VECTORS - 1)) != 0 || ADDR_WIDTH < 13) begin
        $error("Error: VECTORS must be a power of two from 2 to 2048, ADDR_WIDTH 13 or more (instance %m)");
        $finish;
    end
end

reg [31:0]      address_low [0:VECTORS-1];
reg [31:0]      address_high [0:VECTORS-1];
reg [31:0]      message_data [0:VECTORS-1];
reg [VECTORS-1:0] vector_mask;
reg [VECTORS-1:0] pending;

// ---- Register window: writes and reads, one at a time ----

wire write_now = s_axil_awvalid && s_axil_wvalid && !s_axil_bvalid;
assign s_axil_awready = write_now;
assign s_axil_wready = write_now;
assign s_axil_bresp = 2'b00;
assign s_axil_arready = !s_axil_rvalid;
assign s_axil_rresp = 2'b00;

wire                   write_table = s_axil_awaddr < VECTORS * 16;
wire [INDEX_WIDTH-1:0] write_vector = s_axil_awaddr[INDEX_WIDTH+3:4];
wire                   read_table = s_axil_araddr < VECTORS * 16;
wire [INDEX_WIDTH-1:0] read_vector = s_axil_araddr[INDEX_WIDTH+3:4];
wire [ADDR_WIDTH-1:0]  pba_offset = s_axil_araddr - PBA_OFFSET;
wire                   read_pba = s_axil_araddr >= PBA_OFFSET && pba_offset < (VECTORS + 31) / 32 * 4;

function [31:0] merge(input [31:0] old, input [31:0] new_value, input [3:0] strobe);
    integer byte_index;
    begin
        for (byte_index = 0; byte_index < 4; byte_index = byte_index + 1) begin
            merge[8*byte_index +: 8] = strobe[byte_index] ? new_value[8*byte_index +: 8] : old[8*byte_index +: 8];
        end
    end
endfunction

// ---- Sending: the lowest pending vector that may go ----

wire [VECTORS-1:0] sendable = pending & ~vector_mask;
reg  [INDEX_WIDTH-1:0] next_vector;
integer scan;
always @* begin
    next_vector = {INDEX_WIDTH{1'b0}};
    for (scan = VECTORS - 1; scan >= 0; scan = scan - 1) begin
        if (sendable[scan]) begin
            next_vector = scan[INDEX_WIDTH-1:0];
        end
    end
end

reg                   sending;
reg [INDEX_WIDTH-1:0] sending_vector;

always @(posedge clk) begin
    msix_int <= 1'b0;
    if (s_axil_bvalid && s_axil_bready) begin
        s_axil_bvalid <= 1'b0;
    end
    if (write_now) begin
        s_axil_bvalid <= 1'b1;
        if (write_table) begin
            case (s_axil_awaddr[3:2])
                2'd0: address_low[write_vector] <= merge(address_low[write_vector], s_axil_wdata, s_axil_wstrb);
                2'd1: address_high[write_vector] <= merge(address_high[write_vector], s_axil_wdata, s_axil_wstrb);
                2'd2: message_data[write_vector] <= merge(message_data[write_vector], s_axil_wdata, s_axil_wstrb);
                default: if (s_axil_wstrb[0]) vector_mask[write_vector] <= s_axil_wdata[0];
            endcase
        end
    end

    if (request_valid) begin
        pending[request_vector] <= 1'b1;
    end
    if (!sending && msix_enable && !msix_function_mask && sendable != {VECTORS{1'b0}}) begin
        sending <= 1'b1;
        sending_vector <= next_vector;
        msix_address <= {address_high[next_vector], address_low[next_vector]};
        msix_data <= message_data[next_vector];
        msix_int <= 1'b1;
    end
    if (sending && (msix_sent || msix_fail)) begin
        sending <= 1'b0;
        // A request that arrives while its message is on the way stays pending for another
        if (msix_sent && !(request_valid && request_vector == sending_vector)) begin
            pending[sending_vector] <= 1'b0;
        end
    end

    if (rst) begin
        vector_mask <= {VECTORS{1'b1}};
        pending <= {VECTORS{1'b0}};
        sending <= 1'b0;
        msix_int <= 1'b0;
        s_axil_bvalid <= 1'b0;
    end
end

integer word;
always @(posedge clk) begin
    if (s_axil_rvalid && s_axil_rready) begin
        s_axil_rvalid <= 1'b0;
    end
    if (s_axil_arvalid && s_axil_arready) begin
        s_axil_rvalid <= 1'b1;
        s_axil_rdata <= 32'd0;
        if (read_table) begin
            case (s_axil_araddr[3:2])
                2'd0: s_axil_rdata <= address_low[read_vector];
                2'd1: s_axil_rdata <= address_high[read_vector];
                2'd2: s_axil_rdata <= message_data[read_vector];
                default: s_axil_rdata <= {31'd0, vector_mask[read_vector]};
            endcase
        end else if (read_pba) begin
            for (word = 0; word < 32; word = word + 1) begin
                if (pba_offset[ADDR_WIDTH-1:2] * 32 + word < VECTORS) begin
                    s_axil_rdata[word] <= pending[pba_offset[ADDR_WIDTH-1:2] * 32 + word];
                end
            end
        end
    end
    if (rst) begin
        s_axil_rvalid <= 1'b0;
    end
end

// The IP samples the interrupt outputs from its first clock
initial begin
    msix_int = 1'b0;
    msix_address = 64'd0;
    msix_data = 32'd0;
end

endmodule

`resetall
