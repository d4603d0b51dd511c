# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""dpuv.models.nvme_admin against independent facts: the byte layouts of the Identify structures
and log pages as the Linux kernel's include/linux/nvme.h declares them (field names and sizes
written out here, offsets summed from them, each structure's total checked against its known
size), and the controller's rules (docs/storage.md, docs/reference/nvme.md): Get Log Page's check order and
zero fill, Set/Get Features SEL and SV, the Number of Queues sequence error, asynchronous event
masking, FUSE/PSDT, controller reset."""

import random
import struct

import pytest

from dpuv.models import nvme_admin as admin
from dpuv.models import nvme_nvm
from dpuv.models.nvme_admin import AdminModel, Answer, get_log_page, submission

# --- Layouts from include/linux/nvme.h: (field, bytes) in declaration order -------------------

NVME_ID_CTRL = [
    ("vid", 2), ("ssvid", 2), ("sn", 20), ("mn", 40), ("fr", 8), ("rab", 1), ("ieee", 3), ("cmic", 1),
    ("mdts", 1), ("cntlid", 2), ("ver", 4), ("rtd3r", 4), ("rtd3e", 4), ("oaes", 4), ("ctratt", 4),
    ("rsvd100", 11), ("cntrltype", 1), ("fguid", 16), ("crdt1", 2), ("crdt2", 2), ("crdt3", 2),
    ("rsvd134", 122), ("oacs", 2), ("acl", 1), ("aerl", 1), ("frmw", 1), ("lpa", 1), ("elpe", 1),
    ("npss", 1), ("avscc", 1), ("apsta", 1), ("wctemp", 2), ("cctemp", 2), ("mtfa", 2), ("hmpre", 4),
    ("hmmin", 4), ("tnvmcap", 16), ("unvmcap", 16), ("rpmbs", 4), ("edstt", 2), ("dsto", 1), ("fwug", 1),
    ("kas", 2), ("hctma", 2), ("mntmt", 2), ("mxtmt", 2), ("sanicap", 4), ("hmminds", 4), ("hmmaxd", 2),
    ("rsvd338", 4), ("anatt", 1), ("anacap", 1), ("anagrpmax", 4), ("nanagrpid", 4), ("rsvd352", 160),
    ("sqes", 1), ("cqes", 1), ("maxcmd", 2), ("nn", 4), ("oncs", 2), ("fuses", 2), ("fna", 1), ("vwc", 1),
    ("awun", 2), ("awupf", 2), ("nvscc", 1), ("nwpc", 1), ("acwu", 2), ("rsvd534", 2), ("sgls", 4),
    ("mnan", 4), ("rsvd544", 224), ("subnqn", 256), ("rsvd1024", 768), ("ioccsz", 4), ("iorcsz", 4),
    ("icdoff", 2), ("ctrattr", 1), ("msdbd", 1), ("rsvd1804", 2), ("dctype", 1), ("rsvd1807", 241),
    ("psd", 32 * 32), ("vs", 1024)]
# struct nvme_id_power_state: the first field of psd[0]
NVME_ID_POWER_STATE = [("max_power", 2), ("rsvd2", 1), ("flags", 1), ("entry_lat", 4), ("exit_lat", 4),
                       ("read_tput", 1), ("read_lat", 1), ("write_tput", 1), ("write_lat", 1), ("idle_power", 2),
                       ("idle_scale", 1), ("rsvd19", 1), ("active_power", 2), ("active_work_scale", 1),
                       ("rsvd23", 9)]
NVME_ID_NS = [
    ("nsze", 8), ("ncap", 8), ("nuse", 8), ("nsfeat", 1), ("nlbaf", 1), ("flbas", 1), ("mc", 1), ("dpc", 1),
    ("dps", 1), ("nmic", 1), ("rescap", 1), ("fpi", 1), ("dlfeat", 1), ("nawun", 2), ("nawupf", 2),
    ("nacwu", 2), ("nabsn", 2), ("nabo", 2), ("nabspf", 2), ("noiob", 2), ("nvmcap", 16), ("npwg", 2),
    ("npwa", 2), ("npdg", 2), ("npda", 2), ("nows", 2), ("rsvd74", 18), ("anagrpid", 4), ("rsvd96", 3),
    ("nsattr", 1), ("nvmsetid", 2), ("endgid", 2), ("nguid", 16), ("eui64", 8), ("lbaf", 64 * 4),
    ("vs", 3712)]
NVME_NS_ID_DESC = [("nidt", 1), ("nidl", 1), ("reserved", 2)]
NVME_NIDT_NGUID, NVME_NIDT_NGUID_LEN = 0x02, 16
NVME_SMART_LOG = [
    ("critical_warning", 1), ("temperature", 2), ("avail_spare", 1), ("spare_thresh", 1), ("percent_used", 1),
    ("endu_grp_crit_warn_sumry", 1), ("rsvd7", 25), ("data_units_read", 16), ("data_units_written", 16),
    ("host_reads", 16), ("host_writes", 16), ("ctrl_busy_time", 16), ("power_cycles", 16),
    ("power_on_hours", 16), ("unsafe_shutdowns", 16), ("media_errors", 16), ("num_err_log_entries", 16),
    ("warning_temp_time", 4), ("critical_comp_time", 4), ("temp_sensor", 16), ("thm_temp1_trans_count", 4),
    ("thm_temp2_trans_count", 4), ("thm_temp1_total_time", 4), ("thm_temp2_total_time", 4), ("rsvd232", 280)]
NVME_SMART_CRIT_TEMPERATURE = 1 << 1
NVME_ERROR_SLOT = [("error_count", 8), ("sqid", 2), ("cmdid", 2), ("status_field", 2),
                   ("param_error_location", 2), ("lba", 8), ("nsid", 4), ("vs", 1), ("resv", 3), ("cs", 8),
                   ("resv2", 24)]
NVME_FW_SLOT_INFO_LOG = [("afi", 1), ("rsvd1", 7), ("frs", 7 * 8), ("rsvd64", 448)]


def layout(fields: list[tuple[str, int]], total: int) -> dict[str, slice]:
    """Each field's byte range, from the sizes in order; the sizes must add up to the structure's size."""
    ranges, offset = {}, 0
    for name, size in fields:
        ranges[name] = slice(offset, offset + size)
        offset += size
    assert offset == total, f"the layout adds up to {offset} bytes, not {total}"
    return ranges


ID_CTRL = layout(NVME_ID_CTRL, 4096)
POWER_STATE = layout(NVME_ID_POWER_STATE, 32)
ID_NS = layout(NVME_ID_NS, 4096)
NS_ID_DESC = layout(NVME_NS_ID_DESC, 4)
SMART = layout(NVME_SMART_LOG, 512)
ERROR_SLOT = layout(NVME_ERROR_SLOT, 64)
FW_SLOT = layout(NVME_FW_SLOT_INFO_LOG, 512)


def field(data: bytes, ranges: dict[str, slice], name: str, base: int = 0) -> int:
    """A little-endian field's value."""
    where = ranges[name]
    return int.from_bytes(data[base + where.start:base + where.stop], "little")


def test_the_layouts_agree_with_the_offsets_docs_storage_names():
    """The byte numbers docs/storage.md gives and Linux's struct layouts are two statements of one fact."""
    assert (ID_CTRL["cntrltype"].start, ID_CTRL["frmw"].start, ID_CTRL["lpa"].start, ID_CTRL["elpe"].start,
            ID_CTRL["npss"].start, ID_CTRL["wctemp"].start, ID_CTRL["cctemp"].start, ID_CTRL["kas"].start,
            ID_CTRL["oncs"].start, ID_CTRL["fuses"].start, ID_CTRL["vwc"].start, ID_CTRL["sgls"].start,
            ID_CTRL["subnqn"].start, ID_CTRL["psd"].start, ID_CTRL["oaes"].start) == (
        111, 260, 261, 262, 263, 266, 268, 320, 520, 522, 525, 536, 768, 2048, 92)
    assert (ID_NS["nguid"], ID_NS["eui64"]) == (slice(104, 120), slice(120, 128))
    assert (SMART["data_units_read"].start, SMART["host_writes"].start, SMART["num_err_log_entries"].start) == (
        32, 80, 176)
    assert FW_SLOT["frs"].start == 8 and ERROR_SLOT["param_error_location"].start == 14


# --- Identify --------------------------------------------------------------------------------


def identify(model: AdminModel, cns: int, nsid: int = 0, prp1: int = 0x10000) -> Answer:
    return model.answer(submission(admin.OP_IDENTIFY, 1, nsid, cdw10=cns, prp1=prp1))


def test_identify_controller_fields_at_linux_offsets():
    data = identify(AdminModel(17), admin.CNS_CONTROLLER).data
    expected = {"cntrltype": 0x01, "frmw": 0x03, "lpa": 0x04, "elpe": 3, "npss": 0, "wctemp": 343,
                "cctemp": 358, "oncs": 0x0008, "fuses": 0, "vwc": 0, "sgls": 0, "kas": 0, "oaes": 0, "oacs": 0,
                # unchanged by #17
                "vid": 0x1234, "ssvid": 0x1234, "mdts": 5, "cntlid": 1, "ver": 0x00010400, "acl": 3, "aerl": 3,
                "sqes": 0x66, "cqes": 0x44, "nn": 1}
    assert {name: field(data, ID_CTRL, name) for name in expected} == expected
    assert data[ID_CTRL["sn"]] == b"DPUV0001".ljust(20) and data[ID_CTRL["fr"]] == b"0.1".ljust(8)
    nqn = b"nqn.2026-12.io.github.dpuv:nvme:DPUV0001"
    assert data[ID_CTRL["subnqn"]] == nqn + bytes(256 - len(nqn))
    psd0 = ID_CTRL["psd"].start
    assert field(data, POWER_STATE, "max_power", psd0) == 2500
    assert data[psd0 + 2:psd0 + 32] == bytes(30), "power state 0: everything but MP is 0"
    assert data[psd0 + 32:ID_CTRL["psd"].stop] == bytes(31 * 32), "one power state"


def test_identify_namespace_nguid_and_zero_eui64():
    data = identify(AdminModel(17), admin.CNS_NAMESPACE, nsid=1).data
    assert data[ID_NS["nguid"]] == bytes([0x64, 0x70, 0x75, 0x76] + [0] * 11 + [0x01])
    assert data[ID_NS["eui64"]] == bytes(8)
    assert field(data, ID_NS, "nsze") == 2048 and data[ID_NS["lbaf"].start + 2] == 9  # LBAF0.LBADS


def test_namespace_descriptor_list_is_the_nguid_then_zeros():
    answer = identify(AdminModel(17), admin.CNS_NAMESPACE_DESCRIPTORS, nsid=1)
    assert answer.succeeded and len(answer.data) == 4096
    descriptor = answer.data
    assert (field(descriptor, NS_ID_DESC, "nidt"), field(descriptor, NS_ID_DESC, "nidl"),
            field(descriptor, NS_ID_DESC, "reserved")) == (NVME_NIDT_NGUID, NVME_NIDT_NGUID_LEN, 0)
    assert descriptor[4:20] == identify(AdminModel(17), admin.CNS_NAMESPACE, nsid=1).data[ID_NS["nguid"]]
    assert descriptor[20:] == bytes(4096 - 20)


@pytest.mark.parametrize("nsid", [0, 2, 0xFFFFFFFE, 0xFFFFFFFF])
def test_namespace_descriptor_list_of_any_other_namespace_is_invalid_namespace(nsid):
    assert identify(AdminModel(17), admin.CNS_NAMESPACE_DESCRIPTORS, nsid) == Answer(0, admin.SC_INVALID_NAMESPACE)


@pytest.mark.parametrize("nsid, expected", [(0, Answer(0, 0, data=(1).to_bytes(4, "little") + bytes(4092))),
                                            (1, Answer(0, 0, data=bytes(4096))),
                                            (0xFFFFFFFD, Answer(0, 0, data=bytes(4096))),
                                            (0xFFFFFFFE, Answer(0, admin.SC_INVALID_NAMESPACE)),
                                            (0xFFFFFFFF, Answer(0, admin.SC_INVALID_NAMESPACE))])
def test_active_namespace_list_refuses_the_last_two_nsids(nsid, expected):
    assert identify(AdminModel(17), admin.CNS_ACTIVE_NAMESPACES, nsid) == expected


# --- FUSE and PSDT ---------------------------------------------------------------------------


@pytest.mark.parametrize("fuse, psdt", [(1, 0), (2, 0), (3, 0), (0, 1), (0, 2), (0, 3)])
def test_fuse_or_psdt_is_invalid_field_before_the_opcode(fuse, psdt):
    model = AdminModel(17)
    for opcode, cdw10 in ((admin.OP_IDENTIFY, admin.CNS_CONTROLLER), (0x7E, 0), (admin.OP_ASYNC_EVENT_REQUEST, 0),
                          (admin.OP_SET_FEATURES, admin.FEATURE_INTERRUPT_COALESCING | admin.SAVE_BIT)):
        entry = submission(opcode, 1, cdw10=cdw10, cdw11=0x0102, fuse=fuse, psdt=psdt)
        assert model.answer(entry) == Answer(0, admin.SC_INVALID_FIELD), hex(opcode)
    assert model.interrupt_coalescing == 0, "nothing executed"
    # The same bits in a Linux-style flags byte: FUSE 1:0 and PSDT 7:6 of byte 1 (NVME_CMD_SGL_METABUF 0x40)
    assert admin.fused_or_sgl(bytes([0x06, 0x40]) + bytes(62)) and not admin.fused_or_sgl(bytes([0x06, 0x3C]) + bytes(62))


def test_fuse_or_psdt_is_invalid_field_in_the_nvm_model_before_the_namespace():
    model = nvme_nvm.NvmModel(16, 9, 5)
    read = nvme_nvm.io_command(nvme_nvm.OP_READ, 1, 0, 1, 0x1000, nsid=7)
    never = lambda *_: pytest.fail("nothing may be moved")  # noqa: E731
    for flags in (0x01, 0x02, 0x40, 0x80):
        entry = read[:1] + bytes([flags]) + read[2:]
        assert model.execute(entry, never, never) == nvme_nvm.SC_INVALID_FIELD
    assert model.execute(read, never, never) == nvme_nvm.SC_INVALID_NAMESPACE


# --- Get Log Page ----------------------------------------------------------------------------


def log(model: AdminModel, log_page: int, dwords: int, offset: int = 0, **fields) -> Answer:
    return model.answer(get_log_page(1, log_page, dwords, offset, **fields))


def test_get_log_page_fields_are_decoded_from_the_linux_command_layout():
    """struct nvme_get_log_page_command: lid byte 40, numdl 42, numdu 44, lpol 48, lpou 52 (RAE is
    bit 7 of byte 41, CDW10 bit 15)."""
    entry = get_log_page(0x1234, 0x02, 0x12345 + 1, offset=0x0000000500000008, retain_event=True)
    assert entry[40] == 0x02 and entry[41] == 0x80
    assert struct.unpack_from("<HHHII", entry, 42) == (0x2345, 0x0001, 0, 8, 5)
    request = admin.LogPageRequest.decode(admin.Command.decode(entry))
    assert request == admin.LogPageRequest(0x02, True, 0x12346, 0x500000008)


specific = lambda code: Answer(0, code, status_type=admin.SCT_COMMAND_SPECIFIC)  # noqa: E731
INVALID_FIELD, PRP_OFFSET_INVALID = Answer(0, admin.SC_INVALID_FIELD), Answer(0, admin.SC_PRP_OFFSET_INVALID)


@pytest.mark.parametrize("fields, expected", [
    # Every fault at once: the LID is checked first
    (dict(log_page=0x04, dwords=2000, offset=2, prp1=0x1002), specific(admin.SC_INVALID_LOG_PAGE)),
    (dict(log_page=0x00, dwords=1), specific(admin.SC_INVALID_LOG_PAGE)),
    (dict(log_page=0xC0, dwords=1), specific(admin.SC_INVALID_LOG_PAGE)),
    # The offset before the length and the PRPs
    (dict(log_page=0x02, dwords=2000, offset=2, prp1=0x1002), INVALID_FIELD),
    (dict(log_page=0x01, dwords=1, offset=256, prp1=0x1002), INVALID_FIELD),
    (dict(log_page=0x02, dwords=1, offset=1 << 32, prp1=0x1002), INVALID_FIELD),  # LPOU counts
    # The length before the PRPs: NUMDU counts, so anything past 1024 dwords
    (dict(log_page=0x03, dwords=1025, prp1=0x1002), INVALID_FIELD),
    (dict(log_page=0x03, dwords=1 << 16 | 1), INVALID_FIELD),
    # SMART is the controller's: a namespace's is Invalid Field, before the PRPs
    (dict(log_page=0x02, dwords=1, nsid=1, prp1=0x1002), INVALID_FIELD),
    # The PRPs last: PRP1 dword aligned; PRP2 page aligned only when the transfer crosses PRP1's page
    (dict(log_page=0x02, dwords=128, prp1=0x1002), PRP_OFFSET_INVALID),
    (dict(log_page=0x02, dwords=128, prp1=0x1F00, prp2=0x3010), PRP_OFFSET_INVALID),
])
def test_get_log_page_checks_in_order(fields, expected):
    log_page, dwords = fields.pop("log_page"), fields.pop("dwords")
    assert log(AdminModel(17), log_page, dwords, **fields) == expected


@pytest.mark.parametrize("fields", [dict(nsid=0xFFFFFFFF, prp1=0x1F00, prp2=0x3000),
                                    dict(prp1=0x1E00, prp2=0x3010),    # 512 bytes fit PRP1's page
                                    dict(offset=508, prp1=0x1004)])
def test_get_log_page_accepts_what_is_allowed(fields):
    assert log(AdminModel(17), admin.LOG_PAGE_SMART_HEALTH, 128, **fields).succeeded


def test_get_log_page_returns_numd_dwords_from_the_offset_zeros_past_the_end():
    model = AdminModel(17)
    page = model.log_page(admin.LOG_PAGE_FIRMWARE_SLOT)
    assert log(model, admin.LOG_PAGE_FIRMWARE_SLOT, 3, offset=8).data == page[8:20]
    tail = log(model, admin.LOG_PAGE_FIRMWARE_SLOT, 1024, offset=504)
    assert tail.succeeded and len(tail.data) == 4096 and tail.data[:8] == page[504:] and tail.data[8:] == bytes(4088)
    model.record_error(0, 7, admin.status_field(0, admin.SC_INVALID_FIELD))
    errors = log(model, admin.LOG_PAGE_ERROR_INFORMATION, 100)
    assert len(errors.data) == 400 and errors.data[256:] == bytes(144)
    assert field(errors.data, ERROR_SLOT, "error_count") == 1


def test_firmware_slot_log_at_linux_offsets():
    page = AdminModel(17).log_page(admin.LOG_PAGE_FIRMWARE_SLOT)
    assert field(page, FW_SLOT, "afi") == 0x01
    assert page[FW_SLOT["frs"]][:8] == b"0.1     " and page[FW_SLOT["frs"]][8:] == bytes(48)
    assert page[FW_SLOT["rsvd64"]] == bytes(448)


def test_error_log_newest_first_four_kept_at_linux_offsets():
    model = AdminModel(17)
    assert model.log_page(admin.LOG_PAGE_ERROR_INFORMATION) == bytes(256), "no errors: every entry unused"
    invalid_qid = admin.status_field(admin.SCT_COMMAND_SPECIFIC, admin.SC_INVALID_QID)
    model.record_error(0, 0x11, invalid_qid)
    model.record_error(3, 0x22, admin.status_field(0, 0x80))   # an I/O error: LBA Out of Range
    model.record_doorbell_error(admin.AEI_INVALID_DOORBELL_VALUE)
    page = model.log_page(admin.LOG_PAGE_ERROR_INFORMATION)
    entries = [{name: field(page, ERROR_SLOT, name, 64 * index) for name, _ in NVME_ERROR_SLOT} for index in range(4)]
    base = {"lba": 0, "nsid": 0, "vs": 0, "resv": 0, "cs": 0, "resv2": 0, "param_error_location": 0xFFFF}
    assert entries[0] == base | {"error_count": 3, "sqid": 0xFFFF, "cmdid": 0xFFFF, "status_field": 0}
    assert entries[1] == base | {"error_count": 2, "sqid": 3, "cmdid": 0x22, "status_field": (0x80 | 1 << 14) << 1}
    # Status Field: phase tag 0 in bit 0, then SC 8:1 (01h), SCT 11:9 (1), DNR 15
    assert entries[2]["status_field"] == 1 << 1 | 1 << 9 | 1 << 15 and entries[2]["error_count"] == 1
    assert page[192:] == bytes(64)
    for cid in range(3):
        model.record_error(1, cid, invalid_qid)
    page = model.log_page(admin.LOG_PAGE_ERROR_INFORMATION)
    counts = [field(page, ERROR_SLOT, "error_count", 64 * index) for index in range(4)]
    assert counts == [6, 5, 4, 3], "the newest four"


def test_smart_health_log_at_linux_offsets():
    model = AdminModel(17)
    model.record_io(True, 1, 9)               # 1 unit: rounds up to 1 thousand
    model.record_io(True, 125, 12)            # 4 KiB blocks: 1000 units
    model.record_io(False, 1000)              # the namespace's 512-byte blocks
    model.record_io(False, 1)                 # 1001 units: 2 thousands
    for _ in range(5):
        model.record_error(1, 1, admin.status_field(0, admin.SC_INVALID_FIELD))
    model.record_doorbell_error()
    page = log(model, admin.LOG_PAGE_SMART_HEALTH, 128).data
    values = {name: field(page, SMART, name) for name, _ in NVME_SMART_LOG}
    expected = dict.fromkeys(values, 0) | {
        "temperature": 313, "avail_spare": 100, "spare_thresh": 10, "data_units_read": 2, "data_units_written": 2,
        "host_reads": 2, "host_writes": 2, "num_err_log_entries": 6}
    assert values == expected


def test_data_units_round_up_by_thousands():
    model = AdminModel(17)
    model.record_io(True, 1000)
    assert field(model.log_page(admin.LOG_PAGE_SMART_HEALTH), SMART, "data_units_read") == 1
    model.record_io(True, 1)
    assert field(model.log_page(admin.LOG_PAGE_SMART_HEALTH), SMART, "data_units_read") == 2


def test_smart_critical_warning_follows_temperature_and_thresholds():
    model = AdminModel(17)
    warning = lambda: field(model.log_page(admin.LOG_PAGE_SMART_HEALTH), SMART, "critical_warning")  # noqa: E731
    assert warning() == 0
    model.set_temperature(342)
    assert warning() == 0, "under the over-temperature threshold"
    model.set_temperature(343)
    assert warning() == NVME_SMART_CRIT_TEMPERATURE, "at the threshold is past it (greater than or equal)"
    assert field(model.log_page(admin.LOG_PAGE_SMART_HEALTH), SMART, "temperature") == 343
    set_threshold(model, 350)
    assert warning() == 0
    set_threshold(model, 343, under=True)
    assert warning() == NVME_SMART_CRIT_TEMPERATURE, "at the under-temperature threshold (less than or equal)"
    set_threshold(model, 342, under=True)
    assert warning() == 0


# --- Set and Get Features --------------------------------------------------------------------


def set_feature(model: AdminModel, feature: int, cdw11: int, save: bool = False) -> Answer:
    return model.answer(submission(admin.OP_SET_FEATURES, 1, cdw10=feature | int(save) << 31, cdw11=cdw11))


def get_feature(model: AdminModel, feature: int, select: int = admin.SEL_CURRENT, cdw11: int = 0) -> Answer:
    return model.answer(submission(admin.OP_GET_FEATURES, 1, cdw10=feature | select << 8, cdw11=cdw11))


def set_threshold(model: AdminModel, kelvin: int, under: bool = False, sensor: int = 0) -> Answer:
    return set_feature(model, admin.FEATURE_TEMPERATURE_THRESHOLD, kelvin | sensor << 16 | int(under) << 20)


def ok(result: int = 0) -> Answer:
    return Answer(result, admin.SC_SUCCESS)


@pytest.mark.parametrize("feature", admin.SUPPORTED_FEATURES)
def test_set_features_save_is_not_saveable_for_every_supported_feature(feature):
    model = AdminModel(17)
    assert set_feature(model, feature, 0x0001, save=True) == specific(admin.SC_FEATURE_NOT_SAVEABLE)
    assert get_feature(model, feature, admin.SEL_SUPPORTED_CAPABILITIES, cdw11=1) == ok(0b100)


@pytest.mark.parametrize("feature", [0x00, 0x03, admin.FEATURE_VOLATILE_WRITE_CACHE, 0x0C, 0x80, 0xFF])
def test_unsupported_features_are_invalid_field_whatever_sel_and_sv(feature):
    model = AdminModel(17)
    assert set_feature(model, feature, 0) == INVALID_FIELD
    assert set_feature(model, feature, 0, save=True) == INVALID_FIELD
    for select in range(8):
        assert get_feature(model, feature, select) == INVALID_FIELD


@pytest.mark.parametrize("select", [4, 5, 6, 7])
def test_get_features_reserved_sel_is_invalid_field(select):
    assert get_feature(AdminModel(17), admin.FEATURE_ARBITRATION, select) == INVALID_FIELD


@pytest.mark.parametrize("feature, value, stored, default", [
    (admin.FEATURE_ARBITRATION, 0xFFFFFFFF, 0xFFFFFF07, 0),
    (admin.FEATURE_ERROR_RECOVERY, 0xFFFE1234, 0x1234, 0),
    (admin.FEATURE_INTERRUPT_COALESCING, 0xABCD0A05, 0x0A05, 0),
    (admin.FEATURE_WRITE_ATOMICITY_NORMAL, 0xFFFFFFFF, 1, 0),
    (admin.FEATURE_ASYNC_EVENT_CONFIGURATION, 0xFFFFFFFF, 0xFF, 0),
    (admin.FEATURE_POWER_MANAGEMENT, 0xFFFFFF00, 0, 0),
])
def test_sel_current_default_and_saved(feature, value, stored, default):
    model = AdminModel(17)
    assert set_feature(model, feature, value) == ok()
    assert get_feature(model, feature, admin.SEL_CURRENT) == ok(stored)
    assert get_feature(model, feature, admin.SEL_DEFAULT) == ok(default)
    assert get_feature(model, feature, admin.SEL_SAVED) == ok(default), "nothing is saved: saved reads the default"


@pytest.mark.parametrize("feature, cdw11", [(admin.FEATURE_POWER_MANAGEMENT, 1),      # PS 1: no such state
                                            (admin.FEATURE_POWER_MANAGEMENT, 1 << 5),  # WH
                                            (admin.FEATURE_ERROR_RECOVERY, 1 << 16)])  # DULBE
def test_feature_fields_not_supported_are_invalid_field(feature, cdw11):
    model = AdminModel(17)
    assert set_feature(model, feature, cdw11) == INVALID_FIELD
    assert get_feature(model, feature) == ok(0), "nothing stored"


def test_temperature_threshold_selects_echoes_and_checks():
    model = AdminModel(17)
    assert get_feature(model, admin.FEATURE_TEMPERATURE_THRESHOLD) == ok(343), "over defaults to WCTEMP"
    assert get_feature(model, admin.FEATURE_TEMPERATURE_THRESHOLD, cdw11=1 << 20) == ok(0 | 1 << 20)
    assert set_threshold(model, 330, sensor=0xF) == ok(), "every sensor: the composite one here"
    assert get_feature(model, admin.FEATURE_TEMPERATURE_THRESHOLD, cdw11=0xF << 16) == ok(330 | 0xF << 16)
    assert set_threshold(model, 270, under=True) == ok()
    assert get_feature(model, admin.FEATURE_TEMPERATURE_THRESHOLD, cdw11=1 << 20) == ok(270 | 1 << 20)
    assert get_feature(model, admin.FEATURE_TEMPERATURE_THRESHOLD, admin.SEL_DEFAULT, 1 << 20) == ok(1 << 20)
    for cdw11 in (1 << 16, 0xE << 16, 2 << 20, 3 << 20):
        assert set_feature(model, admin.FEATURE_TEMPERATURE_THRESHOLD, cdw11 | 300) == INVALID_FIELD
        assert get_feature(model, admin.FEATURE_TEMPERATURE_THRESHOLD, cdw11=cdw11) == INVALID_FIELD
    assert get_feature(model, admin.FEATURE_TEMPERATURE_THRESHOLD) == ok(330)


def test_interrupt_vector_configuration_per_vector():
    model = AdminModel(17, vectors=8)
    configuration = admin.FEATURE_INTERRUPT_VECTOR_CONFIGURATION
    # Every vector's CD is 0 until the host sets it, vector 0's too (I/O CQs may share it; the
    # admin CQ's completions are never coalesced whatever it says)
    assert get_feature(model, configuration, cdw11=0) == ok(0)
    assert get_feature(model, configuration, cdw11=3) == ok(3)
    assert set_feature(model, configuration, 3 | 1 << 16) == ok()
    assert get_feature(model, configuration, cdw11=3) == ok(3 | 1 << 16) and model.coalescing_disabled(3)
    assert get_feature(model, configuration, cdw11=4) == ok(4), "only that vector"
    assert get_feature(model, configuration, admin.SEL_DEFAULT, cdw11=3) == ok(3)
    assert set_feature(model, configuration, 3) == ok() and not model.coalescing_disabled(3)
    assert set_feature(model, configuration, 0 | 1 << 16) == ok() and model.coalescing_disabled(0)
    assert set_feature(model, configuration, 0) == ok() and not model.coalescing_disabled(0)
    assert set_feature(model, configuration, 8 | 1 << 16) == INVALID_FIELD and get_feature(
        model, configuration, cdw11=8) == INVALID_FIELD
    assert get_feature(model, configuration, cdw11=7) == ok(7)


def create(model: AdminModel, opcode: int, qid: int, other: int = 0) -> Answer:
    return model.answer(admin.create_queue(opcode, 1, qid, 16, 0x10000, vector_or_cq=other))


@pytest.mark.parametrize("first", [admin.OP_CREATE_CQ, admin.OP_CREATE_SQ])
def test_number_of_queues_is_a_sequence_error_once_a_queue_was_created_until_reset(first):
    model = AdminModel(5)
    queues = admin.FEATURE_NUMBER_OF_QUEUES
    assert set_feature(model, queues, 0x00030003) == ok(3 << 16 | 3)
    assert create(model, admin.OP_CREATE_SQ, 1, other=1) == specific(admin.SC_CQ_INVALID)
    assert set_feature(model, queues, 0x00030003) == ok(3 << 16 | 3), "a refused create creates nothing"
    assert create(model, admin.OP_CREATE_CQ, 1).succeeded
    if first == admin.OP_CREATE_SQ:
        assert create(model, admin.OP_CREATE_SQ, 2, other=1).succeeded
    sequence_error = Answer(0, admin.SC_COMMAND_SEQUENCE_ERROR)
    assert set_feature(model, queues, 0x00030003) == sequence_error
    assert set_feature(model, queues, 0x0000FFFF) == sequence_error, "before the fields"
    assert set_feature(model, queues, 0, save=True) == specific(admin.SC_FEATURE_NOT_SAVEABLE)
    assert get_feature(model, queues) == ok(3 << 16 | 3), "Get still answers"
    for opcode, qid in ((admin.OP_DELETE_SQ, 2), (admin.OP_DELETE_CQ, 1)):
        if qid in (model.submission_queues if opcode == admin.OP_DELETE_SQ else model.completion_queues):
            assert model.answer(submission(opcode, 1, cdw10=qid)).succeeded
    assert set_feature(model, queues, 0x00030003) == sequence_error, "deleting the queues does not undo it"
    model.reset()
    assert set_feature(model, queues, 0x00030003) == ok(3 << 16 | 3)


def test_reset_restores_feature_defaults_and_deletes_queues():
    model = AdminModel(5)
    set_feature(model, admin.FEATURE_ARBITRATION, 0x01020303)
    set_feature(model, admin.FEATURE_INTERRUPT_COALESCING, 0x0A05)
    set_feature(model, admin.FEATURE_INTERRUPT_VECTOR_CONFIGURATION, 2 | 1 << 16)
    set_threshold(model, 300)
    create(model, admin.OP_CREATE_CQ, 1)
    model.record_error(0, 1, 0x4002)
    model.reset()
    assert model.completion_queues == {} and model.interrupt_coalescing == 0 and not model.coalescing_disabled(2)
    assert get_feature(model, admin.FEATURE_ARBITRATION) == ok(0)
    assert get_feature(model, admin.FEATURE_TEMPERATURE_THRESHOLD) == ok(343)
    assert model.errors.count == 1, "the error log is not the controller reset's to clear"


def test_interrupt_coalescing_attribute_is_the_feature():
    model = AdminModel(17)
    set_feature(model, admin.FEATURE_INTERRUPT_COALESCING, 0x0203)
    assert model.interrupt_coalescing == 0x0203
    model.interrupt_coalescing = 0
    assert get_feature(model, admin.FEATURE_INTERRUPT_COALESCING) == ok(0)


# --- Asynchronous events ---------------------------------------------------------------------


def read_log(model: AdminModel, log_page: int, retain: bool, **fields) -> Answer:
    return model.answer(get_log_page(1, log_page, 16, retain_event=retain, **fields))


def test_async_event_dw0_layout():
    assert admin.async_event_result(admin.AEI_INVALID_DOORBELL_REGISTER) == 0x00010000
    assert admin.async_event_dw0(admin.AET_SMART_HEALTH, admin.AEI_TEMPERATURE_THRESHOLD,
                                 admin.LOG_PAGE_SMART_HEALTH) == 0x00020101


def test_an_error_event_masks_errors_until_the_error_log_is_read_without_rae():
    model = AdminModel(17)
    assert model.record_doorbell_error(admin.AEI_INVALID_DOORBELL_VALUE)
    assert model.events.take_report() == admin.async_event_result(admin.AEI_INVALID_DOORBELL_VALUE)
    assert model.events.take_report() is None
    assert not model.record_doorbell_error(), "masked: dropped"
    assert model.errors.count == 2, "but logged"
    assert read_log(model, admin.LOG_PAGE_ERROR_INFORMATION, retain=True).succeeded
    assert not model.record_doorbell_error(), "RAE = 1 keeps the mask"
    assert read_log(model, admin.LOG_PAGE_SMART_HEALTH, retain=False).succeeded
    assert not model.record_doorbell_error(), "another type's page does not unmask errors"
    assert read_log(model, admin.LOG_PAGE_ERROR_INFORMATION, retain=False, prp1=0x1001) == PRP_OFFSET_INVALID
    assert not model.record_doorbell_error(), "a refused read does not unmask"
    assert read_log(model, admin.LOG_PAGE_ERROR_INFORMATION, retain=False).succeeded
    assert model.record_doorbell_error()
    assert model.events.take_report() == admin.async_event_result(admin.AEI_INVALID_DOORBELL_REGISTER)


def test_an_event_waiting_for_a_request_is_not_doubled_and_errors_go_first():
    model = AdminModel(17)
    set_feature(model, admin.FEATURE_ASYNC_EVENT_CONFIGURATION, admin.CRITICAL_WARNING_TEMPERATURE)
    model.set_temperature(400)                # the SMART event first
    assert model.record_doorbell_error(admin.AEI_INVALID_DOORBELL_REGISTER)
    assert not model.record_doorbell_error(admin.AEI_INVALID_DOORBELL_VALUE), "one of its type waits already"
    assert model.events.take_report() == admin.async_event_result(admin.AEI_INVALID_DOORBELL_REGISTER), \
        "a waiting error event is reported before a waiting SMART one"
    assert model.events.take_report() == 0x00020101
    assert model.events.take_report() is None


def test_temperature_event_on_the_rising_edge_only_when_aec_asks():
    model = AdminModel(17)
    model.set_temperature(350)
    assert model.events.take_report() is None, "AEC bit 1 clear: no event"
    set_feature(model, admin.FEATURE_ASYNC_EVENT_CONFIGURATION, 0x02)
    model.set_temperature(360)
    assert model.events.take_report() is None, "already above: no edge"
    model.set_temperature(300)
    assert model.events.take_report() is None, "the falling edge is no event"
    set_threshold(model, 299)
    smart_event = admin.async_event_dw0(admin.AET_SMART_HEALTH, admin.AEI_TEMPERATURE_THRESHOLD,
                                        admin.LOG_PAGE_SMART_HEALTH)
    assert model.events.take_report() == smart_event, "a threshold lowered under the temperature is an edge"
    set_threshold(model, 343)
    set_threshold(model, 299)
    assert model.events.take_report() is None, "masked until the SMART page is read"
    set_threshold(model, 343)
    assert read_log(model, admin.LOG_PAGE_ERROR_INFORMATION, retain=False).succeeded
    set_threshold(model, 299)
    assert model.events.take_report() is None, "the error page does not unmask SMART/Health"
    set_threshold(model, 343)
    assert read_log(model, admin.LOG_PAGE_SMART_HEALTH, retain=False).succeeded
    set_threshold(model, 299)
    assert model.events.take_report() == smart_event
    set_feature(model, admin.FEATURE_ASYNC_EVENT_CONFIGURATION, 0x01)
    read_log(model, admin.LOG_PAGE_SMART_HEALTH, retain=False)
    set_threshold(model, 343)
    set_threshold(model, 299)
    assert model.events.take_report() is None, "AEC bit 1 cleared again"


def test_reset_unmasks_and_drops_a_waiting_event():
    model = AdminModel(17)
    model.record_doorbell_error()
    model.events.take_report()
    assert not model.record_doorbell_error()
    model.reset()
    assert model.record_doorbell_error(), "unmasked"
    model.reset()
    assert model.events.take_report() is None, "the waiting event is gone"


def test_event_requests_wait_up_to_aerl_plus_one():
    """AERL + 1 requests wait; the next completes at once with Asynchronous Event Request Limit
    Exceeded, unless it is malformed (FUSE or PSDT set: Invalid Field, checked first, and it takes
    no place). A completed request frees its place; a controller reset drops them all."""
    model = AdminModel(17)
    aer = admin.OP_ASYNC_EVENT_REQUEST
    for cid in range(admin.EVENT_REQUEST_LIMIT):
        assert model.answer(submission(aer, cid)) == Answer(0, 0, completes_now=False)
    refused = Answer(0, admin.SC_EVENT_REQUEST_LIMIT_EXCEEDED, status_type=admin.SCT_COMMAND_SPECIFIC)
    assert model.answer(submission(aer, 9)) == refused
    assert model.answer(submission(aer, 10, fuse=3, psdt=1)) == Answer(0, admin.SC_INVALID_FIELD)
    assert model.events.request_completed() == 0
    assert model.answer(submission(aer, 11, psdt=2)) == Answer(0, admin.SC_INVALID_FIELD)
    assert model.events.requests == [1, 2, 3]
    assert model.answer(submission(aer, 12)).completes_now is False
    model.reset()
    assert model.events.requests == []


@pytest.mark.parametrize("seed", range(3))
def test_any_entry_gets_an_answer_with_data_only_on_success(seed):
    """Random entries (supported opcodes more often, random fields): the model never fails, and
    moves data only for a successful Identify or Get Log Page, of the length the command names."""
    rng = random.Random(seed)
    model = AdminModel(17)
    opcodes = (admin.OP_GET_LOG_PAGE, admin.OP_IDENTIFY, admin.OP_SET_FEATURES, admin.OP_GET_FEATURES,
               admin.OP_CREATE_CQ, admin.OP_CREATE_SQ, admin.OP_DELETE_CQ, admin.OP_DELETE_SQ, 0x7F, 0xC1)
    for cid in range(3000):
        opcode = rng.choice(opcodes)
        cdw10 = rng.choice((rng.getrandbits(32), rng.getrandbits(8) | rng.getrandbits(3) << 8, rng.randrange(16)))
        entry = bytearray(submission(opcode, cid, rng.choice((0, 1, 0xFFFFFFFF, rng.getrandbits(32))), cdw10,
                                     rng.choice((0, rng.getrandbits(32), rng.getrandbits(17))),
                                     rng.getrandbits(40) << 2, rng.getrandbits(40) << 12, rng.getrandbits(12) << 2))
        if rng.random() < 0.05:
            entry[1] = rng.getrandbits(8)
        answer = model.answer(bytes(entry))
        if answer.data:
            assert answer.succeeded and opcode in (admin.OP_IDENTIFY, admin.OP_GET_LOG_PAGE)
            expected = 4096 if opcode == admin.OP_IDENTIFY else 4 * admin.LogPageRequest.decode(
                admin.Command.decode(bytes(entry))).dwords
            assert len(answer.data) == expected
        elif answer.succeeded:
            assert opcode not in (admin.OP_IDENTIFY, admin.OP_GET_LOG_PAGE)
