# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The NVMe controller's functional coverage, sampled where the benches' scoreboards match a
command with its outcome: every I/O command's opcode, PRP form and status (nvme_bench's
check_io_completions), every admin command's opcode and status (the admin unit bench), and the
I/O queues' number and wrap-arounds (nvme_bench's run_commands), and every doorbell abuse a test
made, by what was written and what the controller answered.

The PRP form follows from PRP1's offset and the transfer's length (NVMe base specification,
PRP entries and PRP lists): one page is PRP1 alone, two pages put the second in PRP2, more put
PRP2 at a PRP list, and a list longer than the rest of the page PRP2 points into ends in a pointer
to the next list page (a chained list)."""

from __future__ import annotations

from dpuv.models import nvme_admin, nvme_nvm
from dpuv.regs.access import RegisterAccess
from dpuv.tb.functional_coverage import Covergroup

PAGE = 4096
IO_OPCODES = {nvme_nvm.OP_READ: "read", nvme_nvm.OP_WRITE: "write", nvme_nvm.OP_FLUSH: "flush",
              nvme_nvm.OP_WRITE_ZEROES: "write_zeroes"}
PRP_FORMS = ("none", "prp1_only", "prp2_page", "prp_list", "chained_list")
IO_STATUS = {nvme_nvm.SC_SUCCESS: "success", nvme_nvm.SC_INVALID_OPCODE: "invalid_opcode",
             nvme_nvm.SC_INVALID_FIELD: "invalid_field", nvme_nvm.SC_DATA_TRANSFER_ERROR: "data_transfer_error",
             nvme_nvm.SC_INVALID_NAMESPACE: "invalid_namespace", nvme_nvm.SC_PRP_OFFSET_INVALID: "prp_offset_invalid",
             nvme_nvm.SC_LBA_OUT_OF_RANGE: "lba_out_of_range"}
ADMIN_OPCODES = {nvme_admin.OP_DELETE_SQ: "delete_sq", nvme_admin.OP_CREATE_SQ: "create_sq",
                 nvme_admin.OP_GET_LOG_PAGE: "get_log_page", nvme_admin.OP_DELETE_CQ: "delete_cq",
                 nvme_admin.OP_CREATE_CQ: "create_cq", nvme_admin.OP_IDENTIFY: "identify", nvme_admin.OP_ABORT: "abort",
                 nvme_admin.OP_SET_FEATURES: "set_features", nvme_admin.OP_GET_FEATURES: "get_features",
                 nvme_admin.OP_ASYNC_EVENT_REQUEST: "async_event_request"}
# Generic statuses by name; every command-specific status (SCT 1) counts as one bin. A status
# outside these fails the sample: name it here when the model learns it
ADMIN_STATUS = {nvme_admin.SC_SUCCESS: "success", nvme_admin.SC_INVALID_OPCODE: "invalid_opcode",
                nvme_admin.SC_INVALID_FIELD: "invalid_field", nvme_admin.SC_INVALID_NAMESPACE: "invalid_namespace",
                nvme_admin.SC_COMMAND_SEQUENCE_ERROR: "command_sequence_error",
                nvme_admin.SC_PRP_OFFSET_INVALID: "prp_offset_invalid"}
# I/O queue pairs in use; 64 is the most a build has (QUEUES is at most 65, the admin pair included)
QUEUE_COUNTS = ("1", "2_to_8", "9_to_63", "64")

IO_COMMANDS = Covergroup("storage.io_commands", {
    "opcode": (*IO_OPCODES.values(), "unsupported"), "prp_form": PRP_FORMS, "status": tuple(IO_STATUS.values()),
}, crosses={"opcode_x_prp_form": ("opcode", "prp_form"), "opcode_x_status": ("opcode", "status")})
ADMIN_COMMANDS = Covergroup("storage.admin_commands", {
    "opcode": (*ADMIN_OPCODES.values(), "unsupported"),
    "status": (*ADMIN_STATUS.values(), "command_specific"),
}, crosses={"opcode_x_status": ("opcode", "status")})
QUEUES = Covergroup("storage.io_queues", {"count": QUEUE_COUNTS, "wrapped": ("no", "yes")},
                    crosses={"count_x_wrapped": ("count", "wrapped")})


def prp_form(opcode: int, prp1: int, prp2: int, length: int) -> str:
    """How a transfer of `length` bytes from PRP1 is described, by the pages it touches and, for
    a list, whether its entries fit in the rest of the page PRP2 points into."""
    if opcode not in (nvme_nvm.OP_READ, nvme_nvm.OP_WRITE):
        return "none"
    pages = -(-(prp1 % PAGE + length) // PAGE)
    if pages == 1:
        return "prp1_only"
    if pages == 2:
        return "prp2_page"
    return "prp_list" if pages - 1 <= (PAGE - prp2 % PAGE) // 8 else "chained_list"


def io_command(entry: bytes, block_bytes: int, status_code: int) -> None:
    opcode = entry[0]
    prp1, prp2 = int.from_bytes(entry[24:32], "little"), int.from_bytes(entry[32:40], "little")
    blocks = int.from_bytes(entry[48:50], "little") + 1
    IO_COMMANDS.sample(opcode=IO_OPCODES.get(opcode, "unsupported"),
                       prp_form=prp_form(opcode, prp1, prp2, blocks * block_bytes),
                       status=_named(IO_STATUS, status_code))


def admin_command(opcode: int, status_code: int, status_type: int) -> None:
    if status_type not in (0, nvme_admin.SCT_COMMAND_SPECIFIC):
        raise ValueError(f"admin status type {status_type} has no bin in storage.admin_commands")
    status = "command_specific" if status_type else _named(ADMIN_STATUS, status_code)
    ADMIN_COMMANDS.sample(opcode=ADMIN_OPCODES.get(opcode, "unsupported"), status=status)


def _named(statuses: dict[int, str], status_code: int) -> str:
    if status_code not in statuses:
        raise ValueError(f"status code {status_code:#x} has no bin: add it to the covergroup's statuses")
    return statuses[status_code]


def io_queues(count: int, wrapped: bool) -> None:
    counts = "1" if count == 1 else "2_to_8" if count <= 8 else "9_to_63" if count < 64 else "64"
    QUEUES.sample(count=counts, wrapped="yes" if wrapped else "no")


# A doorbell write, by what it asked (NVMe 1.4, Asynchronous Event Information for error events:
# a value past the queue's size is Invalid Doorbell Write Value, a doorbell of a queue that does not
# exist Invalid Doorbell Register), against what came back: taken quietly, each event, or nothing
# because error events are masked until the error log is read
DOORBELL_WRITES = ("queue_exists", "sq_tail_past_size", "cq_head_past_size", "queue_never_created", "queue_deleted")
DOORBELL_ANSWERS = ("taken", "invalid_value_event", "invalid_register_event", "masked")
DOORBELLS = Covergroup("storage.doorbells", {"write": DOORBELL_WRITES, "answer": DOORBELL_ANSWERS},
                       crosses={"write_x_answer": ("write", "answer")})


def doorbell(write: str, answer: str) -> None:
    """One doorbell write a test made and the answer it checked."""
    DOORBELLS.sample(write=write, answer=answer)


# CC (controller configuration, BAR0 14h) and the settings the controller reports it supports:
# CAP.CSS the NVM command set only, CAP.MPSMIN = MPSMAX = 4 KiB pages, CAP.AMS round robin only,
# Identify SQES/CQES 64- and 16-byte entries (2^6, 2^4)
CC_OFFSET = 0x14
CC_TRANSITIONS = ("enable", "enable_unsupported", "disable", "shutdown_normal", "shutdown_abrupt",
                  "rewrite_while_enabled", "write_while_disabled")
CONFIGURATION = Covergroup("storage.controller_configuration", {"transition": CC_TRANSITIONS})


def cc_transition(before: int, after: int) -> str:
    """What a CC write asks of the controller, from CC's value before it."""
    enabled_before, enabled_after = before & 1, after & 1
    if not enabled_before:
        if not enabled_after:
            return "write_while_disabled"
        supported = (after >> 4 & 7, after >> 7 & 0xF, after >> 11 & 7, after >> 16 & 0xF, after >> 20 & 0xF) == (0, 0, 0, 6, 4)
        return "enable" if supported else "enable_unsupported"
    if not enabled_after:
        return "disable"
    shutdown_before, shutdown_after = before >> 14 & 3, after >> 14 & 3
    if shutdown_after != shutdown_before and shutdown_after in (1, 2):
        return "shutdown_normal" if shutdown_after == 1 else "shutdown_abrupt"
    return "rewrite_while_enabled"


class ConfigurationMonitor(RegisterAccess):
    """The host's register access (the BAR's), passed through; every write of CC is sampled by
    the transition it asks for, against CC's value before it (zero after reset, then each value
    written or read back)."""

    def __init__(self, inner: RegisterAccess):
        self.inner = inner
        self.cc = 0

    def __getattr__(self, name):
        return getattr(self.inner, name)

    async def read(self, address: int, length: int) -> bytes:
        data = await self.inner.read(address, length)
        if address == CC_OFFSET and length == 4:
            self.cc = int.from_bytes(data, "little")
        return data

    async def write(self, address: int, data: bytes) -> None:
        await self.inner.write(address, data)
        if address == CC_OFFSET and len(data) == 4:
            value = int.from_bytes(data, "little")
            CONFIGURATION.sample(transition=cc_transition(self.cc, value))
            self.cc = value

    async def cycles(self, count: int) -> None:
        await self.inner.cycles(count)
