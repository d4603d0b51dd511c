# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The testbench of the simulated ring (allreduce_ring): clock, register bus, and two ways to fill
every rank's buffer and read it back: the host ports, one beat per clock as a DMA engine would,
or a backdoor straight into the buffer memories (no clock time) for megabyte runs."""

import numpy as np
from cocotb.triggers import FallingEdge

from dpuv.models.reduction import DTYPES
from dpuv.drivers import allreduce as allreduce_driver
from dpuv.regs.cocotb_axil import AxiLiteAccess
from dpuv.tb.testbench import quiet, start_clock_and_reset


class RingTB:
    def __init__(self, dut):
        self.dut = dut
        self.ranks = int(dut.RANKS.value)
        self.beat_bytes = int(dut.DATA_WIDTH.value) // 8
        self.buffer_beats = int(dut.BUFFER_BEATS.value)
        self.bus = AxiLiteAccess(dut, dut.clk, dut.rst)
        quiet(self.bus.master.write_if, self.bus.master.read_if)
        self.windows = []

    async def reset(self):
        self.dut.host_write_enable.value = 0
        self.dut.host_address.value = 0
        self.dut.host_write_data.value = 0
        self.dut.rank_rst.value = 0
        await start_clock_and_reset(self.dut.clk, self.dut.rst)
        self.windows = await allreduce_driver.find_ranks(self.bus)
        assert len(self.windows) == self.ranks, f"the chain shows {len(self.windows)} ranks, the top has {self.ranks}"

    def lanes(self, dtype: str) -> int:
        return DTYPES[dtype].lanes(8 * self.beat_bytes)

    def _memory(self, rank: int):
        return self.dut.ranks[rank].rank_inst.buffer_inst.memory

    async def load(self, vectors: list[np.ndarray], backdoor: bool = False) -> None:
        """Write each rank's vector into its buffer."""
        raw = [vector.tobytes() for vector in vectors]
        beats = -(-len(raw[0]) // self.beat_bytes)
        if backdoor:
            for rank, data in enumerate(raw):
                memory = self._memory(rank)
                padded = data.ljust(beats * self.beat_bytes, b"\0")
                for beat in range(beats):
                    memory[beat].value = int.from_bytes(padded[beat * self.beat_bytes:(beat + 1) * self.beat_bytes], "little")
            return
        await FallingEdge(self.dut.clk)
        for beat in range(beats):
            word = 0
            for rank in reversed(range(self.ranks)):
                chunk = raw[rank][beat * self.beat_bytes:(beat + 1) * self.beat_bytes].ljust(self.beat_bytes, b"\0")
                word = (word << (8 * self.beat_bytes)) | int.from_bytes(chunk, "little")
            self.dut.host_address.value = beat
            self.dut.host_write_data.value = word
            self.dut.host_write_enable.value = (1 << self.ranks) - 1
            await FallingEdge(self.dut.clk)
        self.dut.host_write_enable.value = 0

    async def unload(self, elements: int, dtype: str, backdoor: bool = False) -> list[np.ndarray]:
        """Read every rank's first `elements` elements back."""
        info = DTYPES[dtype]
        beats = -(-elements * info.bits // 8 // self.beat_bytes)
        data = [bytearray() for _ in range(self.ranks)]
        if backdoor:
            for rank in range(self.ranks):
                memory = self._memory(rank)
                for beat in range(beats):
                    data[rank] += int(memory[beat].value).to_bytes(self.beat_bytes, "little")
            return [np.frombuffer(bytes(raw), dtype=info.unsigned)[:elements] for raw in data]
        mask = (1 << (8 * self.beat_bytes)) - 1
        await FallingEdge(self.dut.clk)
        for beat in range(beats):
            # The address set now is sampled at the next rising edge; its beat reads at the
            # falling edge after it.
            self.dut.host_address.value = beat
            await FallingEdge(self.dut.clk)
            word = int(self.dut.host_read_data.value)
            for rank in range(self.ranks):
                data[rank] += ((word >> (8 * self.beat_bytes * rank)) & mask).to_bytes(self.beat_bytes, "little")
        return [np.frombuffer(bytes(raw), dtype=info.unsigned)[:elements] for raw in data]

    async def allreduce(self, vectors, dtype, op, flush=False, backdoor=False):
        await self.load(vectors, backdoor)
        reports = await allreduce_driver.run_collective(self.windows, len(vectors[0]), dtype, op, flush)
        return await self.unload(len(vectors[0]), dtype, backdoor), reports


def assert_every_rank_matches(results, expected, label):
    for rank, result in enumerate(results):
        wrong = np.flatnonzero(result != expected)
        assert wrong.size == 0, (f"{label}: rank {rank} has {wrong.size} of {expected.size} elements wrong, "
                                 f"first at {wrong[0]}: {result[wrong[0]]:#x}, model {expected[wrong[0]]:#x}")
