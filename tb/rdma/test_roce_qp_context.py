# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""roce_qp_context: cleared entry by entry after reset, set-ups and write-backs land where they are
sent, and reads return the entry as it was, against a Python model of the RAM."""

import cocotb
from cocotb.triggers import FallingEdge, RisingEdge

from dpuv.tb.testbench import pulse_reset, start_clock_and_reset, test_rng


class TB:
    """Drives one set-up, one write-back and one read per cycle, and keeps the model in step."""

    def __init__(self, dut):
        self.dut = dut
        self.qp_count = 1 << len(dut.read_index)
        self.config_bits = len(dut.config_data)
        self.state_bits = len(dut.config_initial_state)
        self.config = [0] * self.qp_count
        self.state = [0] * self.qp_count
        self.cycle_count = 0
        self.idle()

    def idle(self):
        for name in ("config_write", "config_index", "config_data", "config_initial_state", "state_write",
                     "state_write_index", "state_write_data", "read", "read_index"):
            getattr(self.dut, name).value = 0

    async def reset(self):
        await start_clock_and_reset(self.dut.clk, self.dut.rst)
        await self.wait_until_ready()

    async def wait_until_ready(self) -> int:
        """Cycles until the clearing sweep is done; the model is all zeros from then on."""
        cycles = 0
        await FallingEdge(self.dut.clk)
        while not self.dut.ready.value:
            await FallingEdge(self.dut.clk)
            cycles += 1
        self.config = [0] * self.qp_count
        self.state = [0] * self.qp_count
        return cycles

    async def cycle(self, set_up=None, write_back=None, read=None):
        """One clock edge with these inputs (None: not this cycle); returns what a read returned.
        Called between edges: inputs change at the falling edge, outputs are sampled after the next one."""
        dut = self.dut
        self.idle()
        if set_up is not None:
            index, config, initial_state = set_up
            dut.config_write.value, dut.config_index.value = 1, index
            dut.config_data.value, dut.config_initial_state.value = config, initial_state
        if write_back is not None:
            index, state = write_back
            dut.state_write.value, dut.state_write_index.value, dut.state_write_data.value = 1, index, state
        if read is not None:
            dut.read.value, dut.read_index.value = 1, read
        expected = (self.config[read], self.state[read]) if read is not None else None
        # A set-up wins the cycle: a write-back sent with it is dropped
        if set_up is not None:
            self.config[set_up[0]], self.state[set_up[0]] = set_up[1], set_up[2]
        elif write_back is not None:
            self.state[write_back[0]] = write_back[1]
        await RisingEdge(dut.clk)
        await FallingEdge(dut.clk)
        self.cycle_count += 1
        if read is None:
            return None
        got = (int(dut.config_read_data.value), int(dut.state_read_data.value))
        assert got == expected, f"cycle {self.cycle_count}: QP {read} read {got}, the model holds {expected}"
        return got

    def random_set_up(self, rng):
        return rng.randrange(self.qp_count), rng.getrandbits(self.config_bits), rng.getrandbits(self.state_bits)

    def random_write_back(self, rng):
        return rng.randrange(self.qp_count), rng.getrandbits(self.state_bits)


@cocotb.test(timeout_time=2, timeout_unit="us")
async def every_entry_is_cleared_after_reset_before_ready(dut):
    rng = test_rng("cleared_after_reset")
    tb = TB(dut)
    await tb.reset()
    for index in range(tb.qp_count):
        await tb.cycle(set_up=(index, rng.getrandbits(tb.config_bits) | 1, rng.getrandbits(tb.state_bits) | 1))
    await pulse_reset(dut.clk, dut.rst)
    # Writes sent while the sweep runs are ignored
    dut.config_write.value, dut.state_write.value = 1, 1
    dut.config_data.value, dut.config_initial_state.value, dut.state_write_data.value = 1, 1, 1
    cycles = await tb.wait_until_ready()
    tb.idle()
    # One entry per cycle from the first edge after reset, which pulse_reset waits out itself
    assert cycles == tb.qp_count - 1, f"ready {cycles + 1} cycles after reset, not one entry per cycle"
    for index in range(tb.qp_count):
        assert await tb.cycle(read=index) == (0, 0), f"QP {index} survived reset"


@cocotb.test(timeout_time=50, timeout_unit="us")
async def set_ups_write_backs_and_reads_match_the_model(dut):
    rng = test_rng("random_traffic")
    tb = TB(dut)
    await tb.reset()
    for _ in range(1500):
        await tb.cycle(set_up=tb.random_set_up(rng) if rng.random() < 0.2 else None,
                       write_back=tb.random_write_back(rng) if rng.random() < 0.5 else None,
                       read=rng.randrange(tb.qp_count) if rng.random() < 0.7 else None)
    for index in range(tb.qp_count):
        await tb.cycle(read=index)


@cocotb.test(timeout_time=1, timeout_unit="us")
async def a_read_holds_its_entry_while_the_entry_changes(dut):
    rng = test_rng("read_holds")
    tb = TB(dut)
    await tb.reset()
    config, state = (1 << tb.config_bits) - 1, (1 << tb.state_bits) - 1
    await tb.cycle(set_up=(0, config, state))
    held = await tb.cycle(read=0, write_back=(0, 0))
    assert held == (config, state), "the read saw the write-back of its own cycle"
    for _ in range(5):
        await tb.cycle(write_back=tb.random_write_back(rng), set_up=tb.random_set_up(rng))
        got = (int(dut.config_read_data.value), int(dut.state_read_data.value))
        assert got == held, "the read data changed without a read"
