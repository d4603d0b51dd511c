// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// NVMe controller registers in BAR0: CAP, VS, INTMS/INTMC, CC, CSTS, AQA, ASQ, ACQ and the doorbells from 0x1000
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "nvme_defs.vh"

// The map is the NVMe base specification's (offsets and fields in docs/reference/nvme.md), so
// it is written here rather than generated from SystemRDL: several registers act on write
// (CC.EN starts and resets the controller, CC.SHN shuts it down, INTMS/INTMC set and clear the
// one mask, a doorbell is an event), and CSTS follows the controller rather than the host.
// - CC.EN 0 -> 1 latches the admin queue registers and, READY_DELAY cycles later, sets
//   CSTS.RDY; EN 1 -> 0 resets the controller (queues forgotten) and clears RDY the same way,
//   but only once the queue engine has stopped (stopping tells it to start nothing new; the
//   command it is running finishes, so no data transfer is cut in half).
//   While EN is 1 the host may change only SHN; AQA, ASQ and ACQ are read-only until EN is 0.
// - CC.SHN (normal or abrupt) sets CSTS.SHST to "occurring", then "complete".
// - CC with an I/O queue entry size other than 64 B (SQ) / 16 B (CQ), or a memory page size
//   other than 4 KiB, or a command set other than NVM, sets CSTS.CFS instead of RDY.
// - A doorbell write reaches doorbell_* as one event; one for a queue past QUEUES, or while the
//   controller is not ready, is reported on invalid_doorbell (Asynchronous Event material).
module nvme_registers #(
    // Queue pairs: the admin queue and QUEUES-1 I/O queues (2 to 65)
    parameter QUEUES = 17,
    // Largest queue, in entries (CAP.MQES + 1)
    parameter MAX_QUEUE_ENTRIES = 1024,
    // Cycles from CC.EN (or SHN) changing to CSTS following
    parameter READY_DELAY = 16,
    // Width of the BAR0 offset: the doorbells from 0x1000 need 13 bits or more
    parameter ADDR_WIDTH = 16
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

    // The controller's view
    output reg                    enabled,           // CSTS.RDY: queues may be used
    output wire                   stopping,          // CC.EN is 0 while RDY is 1: start nothing new
    input  wire                   engine_busy,       // the queue engine has a command in hand
    output reg  [11:0]            admin_sq_size,     // entries - 1
    output reg  [11:0]            admin_cq_size,
    output reg  [63:0]            admin_sq_base,
    output reg  [63:0]            admin_cq_base,
    output wire [31:0]            interrupt_mask,    // INTMS/INTMC
    output reg                    doorbell_valid,
    output reg  [6:0]             doorbell_queue,
    output reg                    doorbell_is_cq_head,
    output reg  [15:0]            doorbell_value,
    output reg                    invalid_doorbell
);

localparam [15:0] MQES = MAX_QUEUE_ENTRIES - 1;
// CAP: MQES, CQR (contiguous queues required), TO = 1 (500 ms), DSTRD 0, CSS bit 37 (NVM command
// set), MPSMIN = MPSMAX = 0 (4 KiB pages)
localparam [63:0] CAPABILITIES = {8'd0, 4'd0, 4'd0, 3'd0, 8'b0000_0001, 1'b0, 4'd0, 8'd1, 5'd0, 2'd0, 1'b1, MQES};
localparam [ADDR_WIDTH-1:0] A_CAP_LOW = 'h00, A_CAP_HIGH = 'h04, A_VS = 'h08, A_INTMS = 'h0C, A_INTMC = 'h10,
                            A_CC = 'h14, A_CSTS = 'h1C, A_AQA = 'h24, A_ASQ_LOW = 'h28, A_ASQ_HIGH = 'h2C,
                            A_ACQ_LOW = 'h30, A_ACQ_HIGH = 'h34;
localparam DELAY_WIDTH = $clog2(READY_DELAY + 1);

initial begin
    if (QUEUES < 2 || QUEUES > 65 || MAX_QUEUE_ENTRIES < 2 || MAX_QUEUE_ENTRIES > 65536) begin
        $error("Error: QUEUES must be 2 to 65 and MAX_QUEUE_ENTRIES 2 to 65536 (instance %m)");
        $finish;
    end
    if (ADDR_WIDTH < 13 || READY_DELAY < 1) begin
        $error("Error: ADDR_WIDTH must be 13 or more and READY_DELAY 1 or more (instance %m)");
        $finish;
    end
end

reg [31:0] cc, aqa, mask;
reg [63:0] asq, acq;
reg        fatal;          // CSTS.CFS
reg [1:0]  shutdown_state; // CSTS.SHST
reg [DELAY_WIDTH-1:0] delay;
reg        changing;       // EN or SHN changed: CSTS follows after the delay
reg        cc_supported_latched;

assign interrupt_mask = mask;

// Writes: address and data taken together, one at a time
wire write_now = s_axil_awvalid && s_axil_wvalid && !s_axil_bvalid;
assign s_axil_awready = write_now;
assign s_axil_wready = write_now;
assign s_axil_bresp = 2'b00;
assign s_axil_arready = !s_axil_rvalid;
assign s_axil_rresp = 2'b00;

assign stopping = enabled && !cc[0];

localparam [31:0] DOORBELL_COUNT = 2 * QUEUES;  // an SQ tail and a CQ head per queue

function [31:0] merge(input [31:0] old, input [31:0] new_value, input [3:0] strobe);
    integer byte_index;
    begin
        for (byte_index = 0; byte_index < 4; byte_index = byte_index + 1) begin
            merge[8*byte_index +: 8] = strobe[byte_index] ? new_value[8*byte_index +: 8] : old[8*byte_index +: 8];
        end
    end
endfunction

wire [31:0] cc_written = merge(cc, s_axil_wdata, s_axil_wstrb);
// I/O SQ entries 2^6 = 64 B, CQ entries 2^4 = 16 B, pages 4 KiB, NVM command set
wire        cc_supported = cc_written[19:16] == 4'd6 && cc_written[23:20] == 4'd4 && cc_written[10:7] == 4'd0
                        && cc_written[6:4] == 3'd0;
wire        doorbell_address = s_axil_awaddr >= 'h1000;
wire [ADDR_WIDTH-1:0] doorbell_offset = s_axil_awaddr - 'h1000;
wire [ADDR_WIDTH-3:0] doorbell_index = doorbell_offset[ADDR_WIDTH-1:2];

always @(posedge clk) begin
    doorbell_valid <= 1'b0;
    invalid_doorbell <= 1'b0;
    if (s_axil_bvalid && s_axil_bready) begin
        s_axil_bvalid <= 1'b0;
    end
    if (write_now) begin
        s_axil_bvalid <= 1'b1;
        if (doorbell_address) begin
            if (!enabled || {21'd0, doorbell_index} >= DOORBELL_COUNT) begin
                invalid_doorbell <= 1'b1;
            end else begin
                doorbell_valid <= 1'b1;
                doorbell_queue <= doorbell_index[7:1];
                doorbell_is_cq_head <= doorbell_index[0];
                doorbell_value <= s_axil_wdata[15:0];
            end
        end else begin
            case (s_axil_awaddr)
                A_INTMS: mask <= mask | (s_axil_wdata & {{8{s_axil_wstrb[3]}}, {8{s_axil_wstrb[2]}},
                                                         {8{s_axil_wstrb[1]}}, {8{s_axil_wstrb[0]}}});
                A_INTMC: mask <= mask & ~(s_axil_wdata & {{8{s_axil_wstrb[3]}}, {8{s_axil_wstrb[2]}},
                                                           {8{s_axil_wstrb[1]}}, {8{s_axil_wstrb[0]}}});
                A_CC: begin
                    if (cc[0] && cc_written[0]) begin
                        cc[15:14] <= cc_written[15:14];  // enabled: only a shutdown request changes
                    end else begin
                        cc <= cc_written;
                    end
                    if (cc_written[0] != cc[0] || cc_written[15:14] != cc[15:14]) begin
                        changing <= 1'b1;
                        delay <= READY_DELAY[DELAY_WIDTH-1:0];
                    end
                end
                A_AQA: if (!cc[0]) aqa <= merge(aqa, s_axil_wdata, s_axil_wstrb);
                A_ASQ_LOW: if (!cc[0]) asq[31:0] <= merge(asq[31:0], s_axil_wdata, s_axil_wstrb) & 32'hFFFFF000;
                A_ASQ_HIGH: if (!cc[0]) asq[63:32] <= merge(asq[63:32], s_axil_wdata, s_axil_wstrb);
                A_ACQ_LOW: if (!cc[0]) acq[31:0] <= merge(acq[31:0], s_axil_wdata, s_axil_wstrb) & 32'hFFFFF000;
                A_ACQ_HIGH: if (!cc[0]) acq[63:32] <= merge(acq[63:32], s_axil_wdata, s_axil_wstrb);
                default: ;  // read-only and reserved registers ignore writes
            endcase
        end
    end

    // CSTS follows CC after the delay
    if (changing) begin
        if (delay != 0) begin
            delay <= delay - 1'b1;
        end else begin
            changing <= 1'b0;
            if (cc[0] && !enabled && !fatal) begin
                if (cc_supported_latched) begin
                    enabled <= 1'b1;
                    admin_sq_size <= aqa[11:0];
                    admin_cq_size <= aqa[27:16];
                    admin_sq_base <= asq;
                    admin_cq_base <= acq;
                end else begin
                    fatal <= 1'b1;
                end
            end else if (!cc[0]) begin
                if (engine_busy) begin
                    changing <= 1'b1;  // asked again next cycle
                end else begin
                    enabled <= 1'b0;
                    fatal <= 1'b0;
                    shutdown_state <= 2'b00;
                end
            end
            if (cc[0] && cc[15:14] != 2'b00) begin
                shutdown_state <= 2'b10;  // shutdown processing complete
            end
        end
    end
    if (changing && cc[15:14] != 2'b00 && shutdown_state == 2'b00) begin
        shutdown_state <= 2'b01;  // shutdown processing occurring
    end

    if (rst) begin
        cc <= 32'd0;
        aqa <= 32'd0;
        asq <= 64'd0;
        acq <= 64'd0;
        mask <= 32'd0;
        enabled <= 1'b0;
        fatal <= 1'b0;
        shutdown_state <= 2'b00;
        changing <= 1'b0;
        delay <= {DELAY_WIDTH{1'b0}};
        s_axil_bvalid <= 1'b0;
        doorbell_valid <= 1'b0;
        invalid_doorbell <= 1'b0;
    end
end

// The settings CC held when EN was set
always @(posedge clk) begin
    if (write_now && !doorbell_address && s_axil_awaddr == A_CC && !cc[0]) begin
        cc_supported_latched <= cc_supported;
    end
    if (rst) begin
        cc_supported_latched <= 1'b0;
    end
end

// Reads (doorbells and reserved offsets read as 0)
always @(posedge clk) begin
    if (s_axil_rvalid && s_axil_rready) begin
        s_axil_rvalid <= 1'b0;
    end
    if (s_axil_arvalid && s_axil_arready) begin
        s_axil_rvalid <= 1'b1;
        case (s_axil_araddr)
            A_CAP_LOW: s_axil_rdata <= CAPABILITIES[31:0];
            A_CAP_HIGH: s_axil_rdata <= CAPABILITIES[63:32];
            A_VS: s_axil_rdata <= `NVME_VERSION;
            A_INTMS, A_INTMC: s_axil_rdata <= mask;
            A_CC: s_axil_rdata <= cc;
            A_CSTS: s_axil_rdata <= {26'd0, 2'b00, shutdown_state, fatal, enabled};
            A_AQA: s_axil_rdata <= aqa;
            A_ASQ_LOW: s_axil_rdata <= asq[31:0];
            A_ASQ_HIGH: s_axil_rdata <= asq[63:32];
            A_ACQ_LOW: s_axil_rdata <= acq[31:0];
            A_ACQ_HIGH: s_axil_rdata <= acq[63:32];
            default: s_axil_rdata <= 32'd0;
        endcase
    end
    if (rst) begin
        s_axil_rvalid <= 1'b0;
    end
end

endmodule

`resetall
