// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// PSN order in the 24-bit sequence space, one definition for every module that compares PSNs
//
// Included inside a module's body (a function belongs to the module that includes it), so it has
// no include guard: each including module needs its own copy. Listed in rdma.f so the simulators
// rebuild when it changes, and proved in tb/formal/roce_psn_formal.v: for any base, two PSNs
// less than 2^23 past it keep their order across the wrap from 2^24 - 1 to 0.

// a comes before b: b - a, taken modulo 2^24, is in 1 .. 2^23 (IBA 9.7.1, docs/reference/roce.md:
// a requester never has more than 2^23 PSNs outstanding, so that half window is unambiguous)
function psn_before(input [23:0] a, input [23:0] b);
    begin
        psn_before = (a - b) >= 24'h800000;
    end
endfunction
