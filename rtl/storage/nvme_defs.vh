// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// NVMe facts every storage module shares: opcodes, status codes, Identify CNS values, feature identifiers, asynchronous event information
// Values from docs/reference/nvme.md (NVMe base specification 1.4). They are macros, not
// localparams, because the include guard makes this file's text appear once per build: a
// localparam would exist only in the first module that includes it.
`ifndef NVME_DEFS_VH
`define NVME_DEFS_VH

// VS: the specification version the controller follows (1.4.0)
`define NVME_VERSION                    32'h00010400

// Admin command opcodes
`define NVME_ADMIN_DELETE_SQ            8'h00
`define NVME_ADMIN_CREATE_SQ            8'h01
`define NVME_ADMIN_DELETE_CQ            8'h04
`define NVME_ADMIN_CREATE_CQ            8'h05
`define NVME_ADMIN_IDENTIFY             8'h06
`define NVME_ADMIN_ABORT                8'h08
`define NVME_ADMIN_SET_FEATURES         8'h09
`define NVME_ADMIN_GET_FEATURES         8'h0A
`define NVME_ADMIN_ASYNC_EVENT_REQUEST  8'h0C

// NVM command set opcodes (I/O queues)
`define NVME_NVM_FLUSH                  8'h00
`define NVME_NVM_WRITE                  8'h01
`define NVME_NVM_READ                   8'h02
`define NVME_NVM_WRITE_ZEROES           8'h08

// Identify CDW10 CNS: the structure returned
`define NVME_CNS_NAMESPACE              8'h00
`define NVME_CNS_CONTROLLER             8'h01
`define NVME_CNS_ACTIVE_NAMESPACES      8'h02

// Set/Get Features CDW10 feature identifiers
`define NVME_FEATURE_NUMBER_OF_QUEUES   8'h07
`define NVME_FEATURE_INTERRUPT_COALESCING 8'h08

// Status code types (completion DW3 SCT)
`define NVME_SCT_GENERIC                3'd0
`define NVME_SCT_COMMAND_SPECIFIC       3'd1

// Generic command status (SCT 0)
`define NVME_SC_SUCCESS                 8'h00
`define NVME_SC_INVALID_OPCODE          8'h01
`define NVME_SC_INVALID_FIELD           8'h02
`define NVME_SC_DATA_TRANSFER_ERROR     8'h04
`define NVME_SC_INTERNAL_ERROR          8'h06
`define NVME_SC_INVALID_NAMESPACE       8'h0B
`define NVME_SC_PRP_OFFSET_INVALID      8'h13
`define NVME_SC_LBA_OUT_OF_RANGE        8'h80

// Command-specific status (SCT 1) of the admin commands
`define NVME_SC_CQ_INVALID              8'h00
`define NVME_SC_INVALID_QID             8'h01
`define NVME_SC_INVALID_QUEUE_SIZE      8'h02
`define NVME_SC_EVENT_REQUEST_LIMIT_EXCEEDED 8'h05
`define NVME_SC_INVALID_VECTOR          8'h08
`define NVME_SC_INVALID_QUEUE_DELETION  8'h0C

// Asynchronous event: type error status, the log page that explains it (error information),
// and the information field for a bad doorbell write
`define NVME_EVENT_TYPE_ERROR           3'd0
`define NVME_LOG_ERROR_INFORMATION      8'h01
`define NVME_EVENT_INVALID_DOORBELL_REGISTER 8'h00
`define NVME_EVENT_INVALID_DOORBELL_VALUE    8'h01

`endif
