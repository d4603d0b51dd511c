// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// RoCEv2 RC protocol constants, written once for rtl/rdma (the host interface's are in
// generated/rdma_host_interface.vh, from host_interface.toml)
//
// An include, not a module: it holds only text macros (which outlive `resetall), so it carries
// no `timescale or `default_nettype of its own, and the guard lets every module that needs it
// include it while rdma.f also lists it (so the simulators rebuild when it changes).
`ifndef ROCE_DEFS_VH
`define ROCE_DEFS_VH

// BTH opcodes of the RC transport (IBA opcode table, docs/reference/roce.md). What each one
// carries and where it sits in its message is roce_opcode_info's job; the modules that build
// packets name the opcode they send with these.
`define ROCE_OP_SEND_FIRST               8'h00
`define ROCE_OP_SEND_MIDDLE              8'h01
`define ROCE_OP_SEND_LAST                8'h02
`define ROCE_OP_SEND_LAST_IMM            8'h03
`define ROCE_OP_SEND_ONLY                8'h04
`define ROCE_OP_SEND_ONLY_IMM            8'h05
`define ROCE_OP_WRITE_FIRST              8'h06
`define ROCE_OP_WRITE_MIDDLE             8'h07
`define ROCE_OP_WRITE_LAST               8'h08
`define ROCE_OP_WRITE_LAST_IMM           8'h09
`define ROCE_OP_WRITE_ONLY               8'h0A
`define ROCE_OP_WRITE_ONLY_IMM           8'h0B
`define ROCE_OP_READ_REQUEST             8'h0C
`define ROCE_OP_READ_RESPONSE_FIRST      8'h0D
`define ROCE_OP_READ_RESPONSE_MIDDLE     8'h0E
`define ROCE_OP_READ_RESPONSE_LAST       8'h0F
`define ROCE_OP_READ_RESPONSE_ONLY       8'h10
`define ROCE_OP_ACKNOWLEDGE              8'h11
`define ROCE_OP_ATOMIC_ACKNOWLEDGE       8'h12
`define ROCE_OP_COMPARE_SWAP             8'h13
`define ROCE_OP_FETCH_ADD                8'h14
// RoCEv2's congestion notification packet (annex A17): BTH with BECN set, 16 reserved bytes
`define ROCE_OP_CNP                      8'h81

// AETH syndromes: bits [6:5] name the class, the low five bits its credit count, RNR timer
// code or NAK code
`define ROCE_AETH_CLASS_ACK              2'b00
`define ROCE_AETH_CLASS_RNR_NAK          2'b01
// An ACK that advertises no credit count (0x1F: end-to-end credits not used)
`define ROCE_AETH_ACK                    8'h1F
// RNR NAK with timer code 1 (0.01 ms), the shortest wait
`define ROCE_AETH_RNR_NAK_SHORTEST       8'h21
`define ROCE_AETH_NAK_PSN_SEQUENCE_ERROR 8'h60
`define ROCE_AETH_NAK_INVALID_REQUEST    8'h61
`define ROCE_AETH_NAK_REMOTE_ACCESS      8'h62
`define ROCE_AETH_NAK_REMOTE_OPERATIONAL 8'h63

`endif
