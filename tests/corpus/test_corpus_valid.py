"""The corpus itself is right: every case reproduces its bug, and its reference fix works.

No devicelens here: SETUP runs, CELL raises an error containing EXPECT_ERROR (a clean look-alike
runs), and after REFERENCE_FIX (or with REFERENCE_EDIT applied to SETUP) CELL runs. Each case runs
in its own interpreter through the same harness the scorer uses.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.corpus._harness import Case, by_name, load_cases, raised_expected, run_many

# NB: the module fixture runs every case (two interpreters at a time) inside the first test's setup;
# the project's per-test timeout is meant for single tests.
pytestmark = pytest.mark.timeout(2400)

CASES = load_cases()


@pytest.fixture(scope="module")
def validated(request: pytest.FixtureRequest) -> dict[str, dict[str, Any]]:
    """Every selected case, validated two at a time (``-k`` selects fewer)."""
    # NB: other test files parametrize a "case" too; only corpus cases count here
    params = (getattr(getattr(item, "callspec", None), "params", {})
              for item in request.session.items)
    chosen = {p["case"].name for p in params if isinstance(p.get("case"), Case)}
    return by_name(run_many([c for c in CASES if c.name in chosen], "validate"))


# NB: `make corpus` runs these (every case, about 0.3-0.8 s each); `make test` leaves them out to
# stay within its time: a case is checked here when it is added, and the scorer's floors in
# `make test` fail on a case whose SETUP no longer runs (test_corpus_score.test_no_case_crashes)
@pytest.mark.corpus
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_case_reproduces_and_its_reference_fix_works(
        case: Case, validated: dict[str, dict[str, Any]]) -> None:
    r = validated[case.name]
    assert "crashed" not in r, r.get("crashed")
    assert r["setup"] == "", f"SETUP raised {r['setup']}"
    if case.clean:
        assert r["cell"] == "", f"a clean CELL must run; it raised {r['cell']}"
        return
    assert case.expect_error is not None
    assert raised_expected(case, r["cell"]), f"CELL raised {r['cell']!r}"
    assert r["reference"] == "", f"the reference fix raised {r['reference']}"
    assert r["after_fix"] == "", f"CELL still fails after the reference fix: {r['after_fix']}"


def test_corpus_is_not_empty_and_names_are_unique() -> None:
    assert len(CASES) >= 1
    assert len({c.name for c in CASES}) == len(CASES)
