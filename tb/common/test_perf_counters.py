# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""perf_counters: every snapshot register matches a cycle model under random stimulus."""

import cocotb
from cocotb.triggers import FallingEdge

from dpuv.models.perf_counters import CycleInputs, PerfCountersModel
from dpuv.tb.testbench import start_clock_and_reset, test_rng

OUTPUTS = ("cycles", "beats", "bytes", "packets", "stall_cycles", "idle_cycles", "active_cycles", "events",
           "latency_min", "latency_max", "latency_sum", "latency_count", "latency_errors")


class TB:
    """Drives inputs and compares outputs on the falling edge, away from the rising edge."""

    def __init__(self, dut):
        self.dut = dut
        self.keep_width = len(dut.mon_tkeep)
        self.model = PerfCountersModel(latency_depth=int(dut.LATENCY_DEPTH.value))

    def drive(self, inputs: CycleInputs) -> None:
        dut = self.dut
        dut.enable.value = int(inputs.enable)
        dut.clear.value = int(inputs.clear)
        dut.snapshot.value = int(inputs.snapshot)
        dut.mon_tvalid.value = int(inputs.valid)
        dut.mon_tready.value = int(inputs.ready)
        dut.mon_tlast.value = int(inputs.last)
        dut.mon_tkeep.value = inputs.keep
        dut.event_strobe.value = int(inputs.event)
        dut.latency_start.value = int(inputs.latency_start)
        dut.latency_stop.value = int(inputs.latency_stop)

    async def reset(self):
        self.drive(CycleInputs(enable=False))
        await start_clock_and_reset(self.dut.clk, self.dut.rst)
        await FallingEdge(self.dut.clk)

    async def run(self, stimulus) -> int:
        """Apply each cycle's inputs; compare every output after every edge. Returns cycles run."""
        cycles = 0
        for inputs in stimulus:
            self.drive(inputs)
            expected = self.model.step(inputs)
            await FallingEdge(self.dut.clk)
            cycles += 1
            for name in OUTPUTS:
                got = int(getattr(self.dut, name).value)
                assert got == expected[name], f"cycle {cycles}: {name} is {got}, model says {expected[name]}"
        return cycles


def random_cycles(rng, keep_width: int, count: int, start_rate: float, stop_rate: float):
    for _ in range(count):
        yield CycleInputs(
            enable=rng.random() > 0.05,
            clear=rng.random() < 0.01,
            snapshot=rng.random() < 0.2,
            valid=rng.random() < 0.7,
            ready=rng.random() < 0.7,
            last=rng.random() < 0.3,
            keep=rng.getrandbits(keep_width),
            event=rng.random() < 0.1,
            latency_start=rng.random() < start_rate,
            latency_stop=rng.random() < stop_rate,
        )


@cocotb.test(timeout_time=100, timeout_unit="us")
@cocotb.parametrize(latency_load=("balanced", "starts_outrun_stops", "stops_outrun_starts"))
async def counters_match_model(dut, latency_load):
    rng = test_rng("counters_match_model", latency_load)
    tb = TB(dut)
    await tb.reset()
    start_rate, stop_rate = {"balanced": (0.2, 0.2), "starts_outrun_stops": (0.5, 0.1),
                             "stops_outrun_starts": (0.1, 0.4)}[latency_load]
    await tb.run(random_cycles(rng, tb.keep_width, 3000, start_rate, stop_rate))


@cocotb.test(timeout_time=1, timeout_unit="us")
async def latency_of_known_pairs(dut):
    """Starts at cycles 0, 1, 2 and stops 5, 9, 10 cycles later read back as min 5, max 10, sum 24."""
    tb = TB(dut)
    await tb.reset()
    starts, stops = {0, 1, 2}, {5, 10, 12}
    stimulus = [CycleInputs(latency_start=c in starts, latency_stop=c in stops) for c in range(16)]
    stimulus.append(CycleInputs(snapshot=True))
    await tb.run(stimulus)
    await FallingEdge(dut.clk)
    assert (int(dut.latency_min.value), int(dut.latency_max.value)) == (5, 10)
    assert (int(dut.latency_sum.value), int(dut.latency_count.value)) == (24, 3)
