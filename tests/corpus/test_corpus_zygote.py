"""A case forked from a zygote gives what a fresh interpreter gives, and dies alone.

``run_many`` forks every case from a zygote that imported torch and IPython once; ``fresh=True``
is the old way (a new interpreter per case). The two must agree field for field, and a case that
aborts or hangs must end only its own child.
"""

from __future__ import annotations

import pathlib
from typing import Any

import pytest

from tests.corpus._harness import CASES, Case, _Zygote, load_case, run_case, run_many

# NB: one per simulation, and a clean look-alike; all fix by namespace, all quick
SAMPLE = ("device-loose__cross_entropy_target_cpu",  # fake_cuda
          "device-loose__lmppl_label_left_on_cpu",  # meta
          "dtype-input__anndata_float64_linear",  # cpu
          "clean__adam_step_on_cpu")  # clean

# NB: the fixture runs eight cases twice (fresh interpreters are the slow part)
pytestmark = pytest.mark.timeout(900)

BAD = '''"""A case whose process dies.

Source: https://example.org/1
"""
SIM = "cpu"
FAMILY = "device-loose"
SETUP = "import torch\\nx = torch.ones(2)\\n"
CELL = "x + 1\\n"
EXPECT_ERROR = "Expected"
CULPRITS = ["x"]
FIX = "namespace"
REFERENCE_FIX = "x = x.float()"
REFERENCE_EDIT = None
CLEAN = False
'''


def sample() -> list[Case]:
    return [load_case(CASES / f"{name}.py") for name in SAMPLE]


@pytest.fixture(scope="module")
def both() -> dict[str, tuple[list[dict[str, Any]], list[dict[str, Any]]]]:
    """mode -> (fresh interpreters' results, zygote children's results)."""
    cases = sample()
    return {mode: (run_many(cases, mode, fresh=True), run_many(cases, mode))
            for mode in ("score", "validate")}


@pytest.mark.corpus  # NB: eight interpreters started from scratch: with `make corpus`
@pytest.mark.parametrize("mode", ["score", "validate"])
def test_a_forked_case_gives_the_fresh_interpreters_result_field_for_field(
        mode: str, both: dict[str, tuple[list[dict[str, Any]], list[dict[str, Any]]]]) -> None:
    fresh, forked = both[mode]
    assert [r["case"] for r in forked] == list(SAMPLE)
    assert not any("crashed" in r for r in fresh), fresh
    for old, new in zip(fresh, forked, strict=True):
        assert new == old


def test_the_sample_covers_every_simulation_and_a_clean_look_alike() -> None:
    cases = sample()
    assert {c.sim for c in cases} == {"fake_cuda", "meta", "cpu"}
    assert any(c.clean for c in cases) and not all(c.clean for c in cases)


def write(tmp_path: pathlib.Path, name: str, setup: str) -> Case:
    path = tmp_path / f"device-loose__{name}.py"
    path.write_text(BAD.replace('SETUP = "import torch\\nx = torch.ones(2)\\n"',
                                f"SETUP = {setup!r}"))
    return load_case(path)


def test_a_case_that_aborts_ends_its_child_not_the_zygote(tmp_path: pathlib.Path) -> None:
    aborts = write(tmp_path, "aborts", "import os\nos.abort()\n")
    fine = load_case(CASES / f"{SAMPLE[2]}.py")
    zygote = _Zygote("validate")
    try:
        crashed = zygote.run(aborts)
        assert crashed["crashed"].startswith("exit code -6"), crashed  # SIGABRT
        assert zygote.alive()
        again = zygote.run(fine)
        assert "crashed" not in again and again["cell"].startswith("RuntimeError"), again
    finally:
        zygote.close()
    assert run_case(aborts, "validate")["crashed"].startswith("exit code -6")


def test_a_case_past_its_time_is_killed_and_the_next_one_runs(tmp_path: pathlib.Path) -> None:
    hangs = write(tmp_path, "hangs", "import time\ntime.sleep(600)\n")
    gone = write(tmp_path, "gone", "x = 1\n")
    pathlib.Path(gone.path).unlink()  # NB: the worker itself fails: a traceback, exit code 1
    zygote = _Zygote("validate")
    try:
        assert zygote.run(hangs, timeout=3) == {"case": hangs.name,
                                                 "crashed": "timed out after 3 s"}
        failed = zygote.run(gone)["crashed"]
    finally:
        zygote.close()
    reference = run_case(gone, "validate")["crashed"]
    assert failed.startswith("exit code 1: ") and reference.startswith("exit code 1: ")
    assert failed.splitlines()[-1] == reference.splitlines()[-1]
    assert "ValueError: corpus case device-loose__gone.py: does not import" in failed
