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
`define NVME_ADMIN_GET_LOG_PAGE         8'h02
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
`define NVME_CNS_NAMESPACE_DESCRIPTORS  8'h03

// Get Log Page CDW10 LID: the log pages the controller keeps, and their sizes in dwords
`define NVME_LOG_ERROR_INFORMATION      8'h01
`define NVME_LOG_SMART_HEALTH           8'h02
`define NVME_LOG_FIRMWARE_SLOT          8'h03
`define NVME_LOG_SMART_DWORDS           11'd128
`define NVME_LOG_FIRMWARE_DWORDS        11'd128

// Set/Get Features CDW10 feature identifiers
`define NVME_FEATURE_ARBITRATION        8'h01
`define NVME_FEATURE_POWER_MANAGEMENT   8'h02
`define NVME_FEATURE_TEMPERATURE_THRESHOLD 8'h04
`define NVME_FEATURE_ERROR_RECOVERY     8'h05
`define NVME_FEATURE_NUMBER_OF_QUEUES   8'h07
`define NVME_FEATURE_INTERRUPT_COALESCING 8'h08
`define NVME_FEATURE_INTERRUPT_VECTOR_CONFIG 8'h09
`define NVME_FEATURE_WRITE_ATOMICITY    8'h0A
`define NVME_FEATURE_ASYNC_EVENT_CONFIG 8'h0B
// Get Features CDW10 SEL: current, default, saved, supported capabilities
`define NVME_SELECT_CURRENT             3'd0
`define NVME_SELECT_DEFAULT             3'd1
`define NVME_SELECT_SAVED               3'd2
`define NVME_SELECT_CAPABILITIES        3'd3
// Supported capabilities DW0: the feature is changeable (not saveable, not per namespace)
`define NVME_CAPABILITY_CHANGEABLE      32'h4

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
`define NVME_SC_COMMAND_SEQUENCE_ERROR  8'h0C
`define NVME_SC_PRP_OFFSET_INVALID      8'h13
`define NVME_SC_LBA_OUT_OF_RANGE        8'h80

// Command-specific status (SCT 1) of the admin commands
`define NVME_SC_CQ_INVALID              8'h00
`define NVME_SC_INVALID_QID             8'h01
`define NVME_SC_INVALID_QUEUE_SIZE      8'h02
`define NVME_SC_EVENT_REQUEST_LIMIT_EXCEEDED 8'h05
`define NVME_SC_INVALID_LOG_PAGE        8'h09
`define NVME_SC_INVALID_VECTOR          8'h08
`define NVME_SC_INVALID_QUEUE_DELETION  8'h0C
`define NVME_SC_FEATURE_NOT_SAVEABLE    8'h0D

// Asynchronous events: the types (error status, explained by the error information log;
// SMART/health status, by the SMART log) and the information field of each
`define NVME_EVENT_TYPE_ERROR           3'd0
`define NVME_EVENT_TYPE_SMART           3'd1
`define NVME_EVENT_INVALID_DOORBELL_REGISTER 8'h00
`define NVME_EVENT_INVALID_DOORBELL_VALUE    8'h01
`define NVME_EVENT_TEMPERATURE_THRESHOLD     8'h01

// Identify FR and the firmware slot log's slot 1: the firmware revision (8 ASCII bytes)
`define NVME_FIRMWARE_REVISION          "0.1     "

// Temperatures in kelvin: Identify WCTEMP (the default over-temperature threshold) and CCTEMP
`define NVME_WARNING_TEMPERATURE        16'd343
`define NVME_CRITICAL_TEMPERATURE       16'd358
// The Error Information log's entries (Identify ELPE + 1); each kept as
// {status field, CID, SQID, error count} (nvme_error_log)
`define NVME_ERROR_LOG_ENTRIES          4
`define NVME_ERROR_ENTRY_BITS           80

`endif
