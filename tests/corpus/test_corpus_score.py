"""devicelens's accuracy on the corpus stays at least where it is (``make corpus`` prints it).

NB: the floors are the totals measured on this checkout; they only ever ratchet up as the engine
improves. Raise them when a change lifts a total; never lower one to make a change pass.
"""

from __future__ import annotations

import pytest

from tests.corpus.scorer import Totals, score, totals

# NB: the module fixture runs the scorer (two interpreters at a time) inside the first test's setup;
# the project's per-test timeout is meant for single tests.
pytestmark = pytest.mark.timeout(2400)

# Measured on 133 cases (104 failing, 29 clean look-alikes; 10 of them the fresh held-out set 5,
# HELDOUT.txt); tests/corpus/FAILURES.md explains the baseline and the cases below the goals (named
# 95 %, fix works 90 %, precision 95 %, no clean look-alike flagged). Now: named 99/104, precision
# 94/95 (nine diagnoses name no namespace object: no precision, left out), fix works 101/104,
# clean after fix 104/104, 0 of 29 flagged. Every miss is a held-out case of set 5 (the README
# says why each one misses); the 123 earlier cases all pass.
# NB: a change that adds cases re-measures these (new cases can lower a total).
FLOOR_NAMED = 99 / 104
FLOOR_PRECISION = 94 / 95
MIN_PRECISION_CASES = 95  # NB: naming nothing must not become a way to keep precision up
FLOOR_FIX_WORKS = 101 / 104
FLOOR_CLEAN_AFTER_FIX = 104 / 104
MAX_CLEAN_FLAGGED = 0
EPS = 1e-9  # shares are means of per-case values


@pytest.fixture(scope="module")
def measured() -> Totals:
    return totals(score())


def test_no_case_crashes(measured: Totals) -> None:
    assert measured.crashed == 0


def test_named_floor(measured: Totals) -> None:
    assert measured.named >= FLOOR_NAMED - EPS, measured


def test_precision_floor(measured: Totals) -> None:
    assert measured.precision >= FLOOR_PRECISION - EPS, measured


def test_precision_is_measured_on_at_least(measured: Totals) -> None:
    assert measured.precision_cases >= MIN_PRECISION_CASES, measured


def test_fix_works_floor(measured: Totals) -> None:
    assert measured.fix_works >= FLOOR_FIX_WORKS - EPS, measured


def test_clean_after_fix_floor(measured: Totals) -> None:
    assert measured.clean_after_fix >= FLOOR_CLEAN_AFTER_FIX - EPS, measured


def test_clean_look_alikes_flagged_at_most(measured: Totals) -> None:
    assert measured.clean_flagged <= MAX_CLEAN_FLAGGED, measured
