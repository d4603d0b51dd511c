# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Register maps: generated files current, the model's arithmetic, and the access layer and chain
walk running under plain asyncio against an in-memory bus (as they will against a board)."""

import asyncio
import shutil
import subprocess

import pytest

from dpuv.harness import perf
from dpuv.regs import chain, generate as regmap_generate
from dpuv.regs.access import BusError, PollTimeout, RegisterAccess
from dpuv.regs.maps import id_block, perf_block


class MemoryBus(RegisterAccess):
    """A register space in a dict of 32-bit words; addresses in `errors` answer SLVERR."""

    def __init__(self, words: dict[int, int], errors: set[int] = frozenset()):
        self.words = dict(words)
        self.errors = set(errors)
        self.cycles_waited = 0

    async def read(self, address, length):
        data = b""
        for word_address in range(address & ~3, address + length, 4):
            if word_address in self.errors:
                raise BusError("read", word_address, "SLVERR")
            data += self.words.get(word_address, 0).to_bytes(4, "little")
        offset = address & 3
        return data[offset:offset + length]

    async def write(self, address, data):
        for index, byte in enumerate(data):
            word_address, lane = (address + index) & ~3, (address + index) & 3
            word = self.words.get(word_address, 0)
            self.words[word_address] = (word & ~(0xFF << 8 * lane)) | (byte << 8 * lane)

    async def cycles(self, count):
        self.cycles_waited += count


def chain_words(next_of_id: int, perf_next: int = 0) -> dict[int, int]:
    return {
        0x0: id_block.BLOCK.type_id, 0x4: id_block.BLOCK.version, 0x8: next_of_id, 0xC: chain.MAGIC,
        0x1000: perf_block.BLOCK.type_id, 0x1004: perf_block.BLOCK.version, 0x1008: perf_next,
    }


def test_generated_register_files_are_current():
    assert regmap_generate.check() == [], "generated register files are stale: run `make regs` and commit"


def test_field_insert_and_extract():
    field = id_block.BLOCK["BUILD_OPTIONS"].field("stream_bytes")
    assert field.lsb == 8 and field.width == 8
    assert field.extract(field.insert(0x3, 64)) == 64
    with pytest.raises(ValueError):
        field.insert(0, 256)


def test_unknown_names_list_the_choices():
    with pytest.raises(KeyError, match="MAGIC"):
        id_block.BLOCK["NOPE"]
    with pytest.raises(KeyError, match="stream_bytes"):
        id_block.BLOCK["BUILD_OPTIONS"].field("nope")


def test_sized_accesses_are_little_endian():
    async def scenario():
        bus = MemoryBus({0x20: 0x44332211, 0x24: 0x88776655})
        assert await bus.read_byte(0x21) == 0x22
        assert await bus.read_word(0x22) == 0x4433
        assert await bus.read_dword(0x20) == 0x44332211
        assert await bus.read_qword(0x20) == 0x8877665544332211
        await bus.write_word(0x22, 0xBEEF)
        assert bus.words[0x20] == 0xBEEF2211
    asyncio.run(scenario())


def test_write_field_keeps_other_fields_and_never_replays_pulses():
    async def scenario():
        bus = MemoryBus({0x1010: 0b111})
        window = bus.window(0x1000, perf_block.BLOCK)
        await window.write_field("CTRL", "enable", 0)
        assert bus.words[0x1010] == 0b000, "clear and snapshot are write-1 pulses; RMW must write them 0"
    asyncio.run(scenario())


def test_poll_times_out_with_the_register_named():
    async def scenario():
        window = MemoryBus({}).window(0, id_block.BLOCK)
        with pytest.raises(PollTimeout, match="SCRATCH"):
            await window.poll("SCRATCH", lambda value: value == 1, timeout_cycles=64)
    asyncio.run(scenario())


def test_chain_walk_finds_blocks_in_order():
    found = asyncio.run(chain.walk(MemoryBus(chain_words(0x1000))))
    assert [(block.address, block.type_name, block.model) for block in found] == [
        (0x0, "DPID", id_block.BLOCK), (0x1000, "PERF", perf_block.BLOCK)]


def test_chain_walk_refuses_a_foreign_bitstream():
    words = chain_words(0x1000)
    words[0xC] = 0xDEADBEEF
    with pytest.raises(chain.ChainError, match="no dpuv ID block"):
        asyncio.run(chain.walk(MemoryBus(words)))


def test_chain_walk_refuses_a_loop_and_a_newer_major_version():
    with pytest.raises(chain.ChainError, match="loops"):
        asyncio.run(chain.walk(MemoryBus(chain_words(0x1000, perf_next=0x1000))))
    words = chain_words(0x1000)
    words[0x1004] = 0x00020000
    with pytest.raises(chain.ChainError, match="major version"):
        asyncio.run(chain.walk(MemoryBus(words)))


def test_every_target_is_well_formed():
    for engine, metrics in perf.load_targets().items():
        for metric, target in metrics.items():
            assert target["bound"] in ("min", "max"), f"{engine}.{metric}"
            assert isinstance(target["value"], (int, float)) and target["unit"] and target["description"]


def test_a_figure_fails_on_a_missed_target_or_a_disagreeing_counter():
    assert perf.compare("loopback", "utilisation", 1.0, 1.0).passed
    slow = perf.compare("loopback", "utilisation", 0.5, 0.5)
    assert not slow.passed and "below" in slow.explain()
    broken = perf.compare("loopback", "latency_max", 1, 7)
    assert not broken.passed and "disagrees" in broken.explain()


def test_c_headers_compile_together(tmp_path):
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler")
    headers = sorted((regmap_generate.PROJECT_ROOT / "sw" / "include").glob("dpuv/*.h"))
    source = tmp_path / "all.c"
    source.write_text("".join(f'#include "{header.relative_to(header.parent.parent)}"\n' for header in headers))
    include_dir = regmap_generate.PROJECT_ROOT / "sw" / "include"
    completed = subprocess.run([compiler, "-std=c11", "-Wall", "-Werror", "-fsyntax-only", f"-I{include_dir}",
                                str(source)], capture_output=True, text=True)
    assert completed.returncode == 0, completed.stderr
