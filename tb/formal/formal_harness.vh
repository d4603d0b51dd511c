// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Formal only, included in the body of every harness (which has clk and rst):
// - BOUNDED_CHECKS is 0 when the harness is read for k-induction (FORMAL_INDUCTION defined), so
//   that the assertions on state hidden inside the block are left to the bounded task;
// - past_valid is 0 in the first cycle only, and reset is held in that cycle.
`ifdef FORMAL_INDUCTION
localparam BOUNDED_CHECKS = 0;
`else
localparam BOUNDED_CHECKS = 1;
`endif

reg past_valid = 1'b0;
always @(posedge clk) past_valid <= 1'b1;
always @(*) if (!past_valid) assume(rst);
