// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// DCQCN reaction-point stages, the codes of roce_dcqcn_rate's stage output
//
// An include of text macros only (see roce_defs.vh for why it has no `timescale of its own).
// The codes number dpuv.models.dcqcn.RateStage in its declaration order, so a bench maps a code
// to the model's stage as list(RateStage)[code] and the encoding is written only here.
`ifndef ROCE_DCQCN_STAGES_VH
`define ROCE_DCQCN_STAGES_VH

// No CNP since reset, or recovered to the line rate: the rate-increase timer is stopped
`define DCQCN_STAGE_UNTHROTTLED       2'd0
// Both stage counts at most F: RC halves its distance to RT
`define DCQCN_STAGE_FAST_RECOVERY     2'd1
// One stage count past F: RT += R_AI, then the same step
`define DCQCN_STAGE_ADDITIVE_INCREASE 2'd2
// Both past F: RT += R_HAI, then the same step
`define DCQCN_STAGE_HYPER_INCREASE    2'd3

`endif
