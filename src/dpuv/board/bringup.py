# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""`dpuv bringup --link URL`: identify a board's bitstream and check it before any scenario runs.

Steps: identify (ID block, version, git hash, build options, the register-block chain), a
register read/write self-test, live counters, and each present engine's smoke check. It prints
a human report as it goes and writes the same findings as JSON. A link that stays silent, a
bitstream that is not dpuv, or a register-map version this software does not know stops it
with a clear message before anything else runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

from dpuv.board import cluster_pair, rank_ring, rdma_pair
from dpuv.drivers import allreduce, traffic
from dpuv.harness import perf
from dpuv.regs import chain
from dpuv.regs.bar_mmap import MmapBarAccess, resource_path
from dpuv.regs.board_link import LinkAccess, LinkError
from dpuv.regs.access import BusError, RegisterAccess
from dpuv.regs.maps import allreduce_rank, id_block, perf_block, traffic_block

SCRATCH_PATTERNS = [0x00000000, 0xFFFFFFFF, 0xAAAAAAAA, 0x55555555] + [1 << bit for bit in range(32)]


@dataclass
class Check:
    name: str
    passed: bool
    detail: str


@dataclass
class Report:
    link: str
    identity: dict = field(default_factory=dict)
    blocks: list = field(default_factory=list)
    checks: list = field(default_factory=list)
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        return bool(self.checks) and all(check.passed for check in self.checks)


class Progress:
    """One line per step as it starts and ends, so a long run shows where it is."""

    def __init__(self, stream=sys.stdout):
        self.stream = stream

    def step(self, text: str) -> None:
        print(f"  ... {text}", file=self.stream, flush=True)

    def result(self, check: Check) -> None:
        print(f"  {'PASS' if check.passed else 'FAIL'} {check.name}: {check.detail}", file=self.stream, flush=True)


async def identify(bus: RegisterAccess, report: Report, progress: Progress) -> list[chain.FoundBlock]:
    progress.step("identifying the bitstream")
    found = await chain.walk(bus)  # refuses a foreign bitstream or an unknown major version
    ident = bus.window(chain.ID_BLOCK_ADDRESS, id_block.BLOCK)
    version = id_block.BLOCK["DESIGN_VERSION"]
    design = await ident.read_register("DESIGN_VERSION")
    options = await ident.read_register("BUILD_OPTIONS")
    report.identity = {
        "design_version": ".".join(str(version.field(name).extract(design)) for name in ("major", "minor", "patch")),
        "git_hash": f"{await ident.read_register('GIT_HASH'):08x}",
        "git_dirty": id_block.BLOCK["BUILD_OPTIONS"].field("git_dirty").extract(options),
        "simulation": id_block.BLOCK["BUILD_OPTIONS"].field("simulation").extract(options),
        "stream_bytes": id_block.BLOCK["BUILD_OPTIONS"].field("stream_bytes").extract(options),
        "clock_khz": await ident.read_register("CLOCK_FREQ_KHZ"),
    }
    report.blocks = [{"address": f"{block.address:#06x}", "type": block.type_name, "version": f"{block.version:#010x}"}
                     for block in found]
    return found


async def register_self_test(bus: RegisterAccess, rng: random.Random) -> Check:
    ident = bus.window(chain.ID_BLOCK_ADDRESS, id_block.BLOCK)
    patterns = SCRATCH_PATTERNS + [rng.getrandbits(32) for _ in range(8)]
    for pattern in patterns:
        await ident.write_register("SCRATCH", pattern)
        readback = await ident.read_register("SCRATCH")
        if readback != pattern:
            return Check("register self-test", False, f"SCRATCH wrote {pattern:#010x}, read {readback:#010x}")
    await ident.write_register("SCRATCH", 0)
    return Check("register self-test", True, f"{len(patterns)} patterns written and read back on SCRATCH")


async def counters_alive(bus: RegisterAccess, block: chain.FoundBlock) -> Check:
    window = block.window(bus)
    first = await perf.read_counters(window)
    await bus.cycles(1000)
    second = await perf.read_counters(window)
    advanced = second["cycles"] - first["cycles"]
    passed = advanced > 0 and second["latency_errors"] == first["latency_errors"]
    return Check(f"counters at {block.address:#06x}", passed, f"CYCLES advanced by {advanced} between snapshots")


async def allreduce_smoke(bus: RegisterAccess, block: chain.FoundBlock) -> Check:
    """A start that must be refused (ring size 1): exercises the CSRs and the start path safely."""
    window = block.window(bus)
    await allreduce.configure(window, rank=0, ranks=1, elements=1, dtype="fp32", op="sum")
    await allreduce.start(window)
    status = (await allreduce.report(window, 0)).status
    await window.write_register("CTRL", allreduce_rank.BLOCK["CTRL"].field("clear_counters").insert(0, 1))
    passed = status["ring_error"] == 1 and status["busy"] == 0
    return Check(f"all-reduce rank at {block.address:#06x}", passed, f"ring size 1 refused: {status}")


TRAFFIC_FRAMES = 64
TRAFFIC_FRAME_BEATS = 16


async def traffic_self_test(bus: RegisterAccess, block: chain.FoundBlock, rng: random.Random) -> Check:
    """Move data: frames of a seeded pattern through the board's stream path at full clock rate."""
    result = await traffic.run(block.window(bus), TRAFFIC_FRAMES, TRAFFIC_FRAME_BEATS, rng.getrandbits(32))
    return Check(f"traffic through the path at {block.address:#06x}", result.clean, result.summary())


async def traffic_checker_alive(bus: RegisterAccess, block: chain.FoundBlock, rng: random.Random) -> Check:
    """A run with one flipped bit must show exactly one bad frame, or a clean run proves nothing."""
    result = await traffic.run(block.window(bus), 4, TRAFFIC_FRAME_BEATS, rng.getrandbits(32), inject_error=True)
    c = result.counters
    passed = (c["FRAMES_RECEIVED"], c["FRAMES_BAD"], c["BAD_BEATS"], c["SEQUENCE_ERRORS"]) == (4, 1, 1, 0)
    return Check(f"injected error seen at {block.address:#06x}", passed,
                 f"{c['FRAMES_BAD']} bad frame(s), {c['BAD_BEATS']} bad beat(s) of {c['FRAMES_RECEIVED']} frames")


def _checked(name: str, scenario) -> Callable:
    """An engine scenario's (passed, detail) as a Check; a scenario that stops waiting fails it."""
    async def run() -> Check:
        try:
            passed, detail = await scenario()
        except TimeoutError as error:
            passed, detail = False, str(error)
        return Check(name, passed, detail)
    return run


def engine_steps(bus: RegisterAccess, found: list[chain.FoundBlock], seed: int, soak_rounds: int) -> list:
    """The scenarios of the engines a board build carries beside the self-test."""
    steps = []
    ranks = cluster_pair.find_ranks(bus, found)
    if len(ranks) >= 2:
        rng = random.Random(seed)

        async def allreduce() -> tuple[bool, str]:
            return await cluster_pair.known_vector_allreduce(ranks, await cluster_pair.beat_bits(bus, found), rng)

        return [("all-reduce of a known vector", _checked("all-reduce of a known vector", allreduce))]
    ring = rank_ring.find_ranks(bus, found)
    if len(ring) >= 2:
        rng = random.Random(seed)

        async def ring_allreduces() -> tuple[bool, str]:
            return await rank_ring.known_vector_allreduces(ring, await cluster_pair.beat_bits(bus, found), rng)

        return [("all-reduce ring of known vectors", _checked("all-reduce ring of known vectors", ring_allreduces))]
    nodes = rdma_pair.find_nodes(bus, found)
    if len(nodes) == 1:
        # A card: one node, whose MAC must be looped back for it to have a peer
        rng = random.Random(seed)
        node = nodes[0]
        return [("RDMA loopback smoke", _checked("RDMA loopback smoke (the MAC looped back)",
                                                  lambda: rdma_pair.loopback_smoke(node, rng))),
                ("RDMA counters", _checked(f"RDMA counters of the node at {node.id_address:#07x} against the targets",
                                           lambda: rdma_pair.counters_against_targets(node, node, rng)))]
    if len(nodes) >= 2:
        rng = random.Random(seed)
        steps.append(("RDMA pair smoke", _checked("RDMA pair smoke", lambda: rdma_pair.pair_smoke(nodes, rng))))
        if soak_rounds:
            steps.append(("RDMA pair soak", _checked("RDMA pair soak",
                                                     lambda: rdma_pair.pair_soak(nodes, rng, soak_rounds))))
        steps += [(f"RDMA counters {requester.id_address:#07x}",
                   _checked(f"RDMA counters of the node at {requester.id_address:#07x} against the targets",
                            lambda requester=requester, responder=responder:
                            rdma_pair.counters_against_targets(requester, responder, rng)))
                  for requester, responder in ((nodes[0], nodes[1]), (nodes[1], nodes[0]))]
    return steps


async def bring_up(bus: RegisterAccess, link: str, progress: Progress, seed: int = 1, soak_rounds: int = 0) -> Report:
    started = time.monotonic()
    report = Report(link)
    found = await identify(bus, report, progress)
    print(f"  bitstream: dpuv {report.identity['design_version']}, git {report.identity['git_hash']}"
          f"{' (dirty)' if report.identity['git_dirty'] else ''}, {'simulation' if report.identity['simulation'] else 'board'}"
          f" build, clock {report.identity['clock_khz'] / 1000:g} MHz", file=progress.stream)
    print("  blocks: " + ", ".join(f"{block['type']}@{block['address']}" for block in report.blocks), file=progress.stream)
    steps = [("register self-test", lambda: register_self_test(bus, random.Random(seed)))]
    steps += [(f"counters {block.address:#06x}", lambda block=block: counters_alive(bus, block))
              for block in chain.blocks_of_type(found, perf_block.BLOCK)]
    steps += [(f"all-reduce {block.address:#06x}", lambda block=block: allreduce_smoke(bus, block))
              for block in chain.blocks_of_type(found, allreduce_rank.BLOCK)]
    rng = random.Random(seed)
    for block in chain.blocks_of_type(found, traffic_block.BLOCK):
        steps += [(f"traffic {block.address:#06x}", lambda block=block: traffic_self_test(bus, block, rng)),
                  (f"traffic checker {block.address:#06x}", lambda block=block: traffic_checker_alive(bus, block, rng))]
    steps += engine_steps(bus, found, seed, soak_rounds)
    for index, (name, run) in enumerate(steps, start=1):
        progress.step(f"[{index}/{len(steps)}] {name}")
        try:
            check = await run()
        except BusError as error:
            check = Check(name, False, f"bus error: {error}")
        report.checks.append(check)
        progress.result(check)
    report.seconds = round(time.monotonic() - started, 3)
    return report


async def open_bus(url: str, response_timeout: float, attempts: int) -> tuple[RegisterAccess, Callable[[], None]]:
    """The register bus behind a link URL, and how to close it: pci:// maps a card's BAR, anything
    else is a byte link (serial port, TCP) carrying the framed protocol."""
    if url.startswith("pci://"):
        bus = MmapBarAccess(resource_path(url))
        return bus, bus.close
    from dpuv.board.transport import open_link

    transport = await open_link(url)
    return LinkAccess(transport, response_timeout=response_timeout, attempts=attempts), transport.close


async def run_bringup(url: str, json_path: str | None, response_timeout: float, attempts: int,
                      soak_rounds: int = 0) -> int:
    print(f"dpuv bring-up over {url}")
    try:
        bus, close = await open_bus(url, response_timeout, attempts)
    except (OSError, ValueError) as error:  # pyserial's SerialException and BarError are OSErrors
        print(f"FAILED: cannot open the link {url}: {error}")
        return 2
    try:
        report = await bring_up(bus, url, Progress(), soak_rounds=soak_rounds)
    except (LinkError, chain.ChainError) as error:
        print(f"FAILED: {error}")
        return 2
    finally:
        close()
    retries = getattr(bus, "retries", 0)  # only a byte link retries
    summary = f"{sum(c.passed for c in report.checks)} passed, {sum(not c.passed for c in report.checks)} failed"
    print(f"bring-up {'PASSED' if report.passed else 'FAILED'} in {report.seconds} s, {retries} link retries")
    print(summary)
    if json_path:
        Path(json_path).write_text(json.dumps(asdict(report) | {"passed": report.passed, "link_retries": retries},
                                              indent=2))
    return 0 if report.passed else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="dpuv", description="dpuv board tools")
    commands = parser.add_subparsers(dest="command", required=True)
    bringup_parser = commands.add_parser("bringup", help=__doc__.splitlines()[0])
    bringup_parser.add_argument("--link", required=True,
                                help="/dev/ttyUSB0, socket://host:port, tcp://host:port, loop://, or pci://0000:03:00.0 for a card's BAR")
    bringup_parser.add_argument("--json", help="also write the report here")
    bringup_parser.add_argument("--timeout", type=float, default=0.5, help="seconds to wait for each answer")
    bringup_parser.add_argument("--attempts", type=int, default=4, help="tries per request before giving up")
    bringup_parser.add_argument("--soak", type=int, default=0, metavar="ROUNDS",
                                help="after each engine's smoke, this many rounds of seeded random work")
    arguments = parser.parse_args(argv)
    if arguments.soak < 0:
        parser.error("--soak must be 0 or more rounds")
    return asyncio.run(run_bringup(arguments.link, arguments.json, arguments.timeout, arguments.attempts,
                                   arguments.soak))


if __name__ == "__main__":
    sys.exit(main())
