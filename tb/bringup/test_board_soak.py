# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The RDMA pair's soak on its board build, through the UART pins: a round of seeded random
WRITEs, READs and SENDs of 1 to 512 bytes each way, every byte and the bytes past each buffer
checked through the nodes' memory windows (`make regress`: minutes on Icarus)."""

import cocotb

from board_bench import TB
from dpuv.board import rdma_pair
from dpuv.regs import chain
from dpuv.tb.testbench import test_rng


@cocotb.test(timeout_time=12, timeout_unit="ms")
async def a_soak_round_of_random_work_both_ways_lands_every_byte(dut):
    tb = TB(dut)
    await tb.reset()
    nodes = rdma_pair.find_nodes(tb.link, await chain.walk(tb.link))
    rng = test_rng()
    await rdma_pair.set_up_pair(nodes[0], nodes[1], rng)
    passed, detail = await rdma_pair.pair_soak(nodes, rng, rounds=1)
    dut._log.info("soak: %s", detail)
    assert passed, detail
