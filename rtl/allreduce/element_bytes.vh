// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Bytes per element of each dtype code (docs/allreduce.md); included inside the modules that size vectors
function [2:0] element_bytes(input [2:0] type_code);
    case (type_code)
        3'd0, 3'd3: element_bytes = 3'd4;
        3'd1, 3'd2: element_bytes = 3'd2;
        default: element_bytes = 3'd1;
    endcase
endfunction
