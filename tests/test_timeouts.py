# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""`make timeouts`: each cocotb test's timeout from its longest measured simulated time."""

from dpuv.harness import timeouts

TEST_FILE = '''import cocotb


@cocotb.test(timeout_time=100, timeout_unit="ms")
async def quick_one(dut):
    pass


@cocotb.test()
@cocotb.parametrize(size=[1, 2])
async def parametrized_one(dut, size):
    pass


@cocotb.test(timeout_time=3, timeout_unit="ms", skip=False)
async def never_measured(dut):
    pass
'''


def run_record(cases: list[tuple[str, float]]) -> str:
    """A cocotb results.xml of module test_unit: (test name, simulated ns) per case."""
    testcases = "".join(f'<testcase classname="test_unit" name="{name}"><properties>'
                        f'<property name="sim_time_duration" value="{simulated_ns}"/></properties></testcase>'
                        for name, simulated_ns in cases)
    return f"<testsuites><testsuite>{testcases}</testsuite></testsuites>"


def test_timeouts_follow_the_longest_measured_run(tmp_path):
    area = tmp_path / "tb" / "area"
    area.mkdir(parents=True)
    (area / "test_unit.py").write_text(TEST_FILE)
    records = {"unit/icarus/W8/seed1": [("quick_one", 1800), ("parametrized_one/size=1", 30_000)],
               "unit/verilator/W8/seed1": [("quick_one", 2200), ("parametrized_one/size=2", 41_000)],
               # a mutant's run says nothing about the test's own length
               "mutant-unit-quick_one-1234/icarus/W8/seed1": [("quick_one", 9_000_000)]}
    for folder, cases in records.items():
        (tmp_path / "results" / "runs" / folder).mkdir(parents=True)
        (tmp_path / "results" / "runs" / folder / "results.xml").write_text(run_record(cases))
    assert timeouts.main(tmp_path / "results", tmp_path / "tb") == 0
    text = (area / "test_unit.py").read_text()
    # 5 x 2.2 us = 11 us -> 20 us; 5 x 41 us = 205 us -> 500 us; the unmeasured one keeps its own
    assert '@cocotb.test(timeout_time=20, timeout_unit="us")\nasync def quick_one' in text
    assert '@cocotb.test(timeout_time=500, timeout_unit="us")\n@cocotb.parametrize' in text
    assert '@cocotb.test(timeout_time=3, timeout_unit="ms", skip=False)' in text


def test_budgets_are_five_to_ten_times_the_simulated_time():
    assert timeouts.budget(1_000) == 'timeout_time=5, timeout_unit="us"'
    assert timeouts.budget(1_100) == 'timeout_time=10, timeout_unit="us"'
    assert timeouts.budget(250_000) == 'timeout_time=2, timeout_unit="ms"'
    assert timeouts.budget(30) == 'timeout_time=1, timeout_unit="us"'
