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

# Measured on 343 cases (266 failing, 77 clean look-alikes; 220 of them the held-out sets 5 to 13,
# HELDOUT.txt); tests/corpus/FAILURES.md explains the baseline and docs/accuracy.md every held-out
# miss (goals: named 95 %, fix works 90 %, precision 95 %, no clean look-alike flagged). Now: named
# 236/266, precision 98.5 % over 236 cases (30 diagnoses name no namespace object: no precision,
# left out), fix works 249/266, clean after fix 264/266, 1 of the 77 look-alikes flagged (set 13's
# CLIP attn_mask, not tuned on yet). Verified (the rehearsal ran the cell after the fix):
# 237/266, and every fix marked verified works when applied as printed: that share is held at
# 100 %. The 123 tuned cases: named, fix works and clean after fix 100 %, verified 91/96.
# NB: a change that adds cases re-measures these (new cases can lower a total): set 13 (28 cases,
# scored on first contact, not tuned on) came in with this measurement. A fix that works and does
# harm is not counted as one.
FLOOR_NAMED = 236 / 266
FLOOR_PRECISION = 0.98  # NB: a mean of per-case precisions (98.52 % measured)
MIN_PRECISION_CASES = 236  # NB: naming nothing must not become a way to keep precision up
FLOOR_FIX_WORKS = 249 / 266
# NB: one below the measured 237: a rehearsal that a loaded 2-core machine slows past its time
# limit says "not verified" (never a wrong "verified")
FLOOR_VERIFIED = 236 / 266
FLOOR_VERIFIED_RIGHT = 1.0  # NB: "verified" is a promise: the fix, applied as printed, works
FLOOR_CLEAN_AFTER_FIX = 264 / 266
MAX_CLEAN_FLAGGED = 1  # NB: set 13's CLIP look-alike (docs/accuracy.md); was 0 before set 13
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


def test_verified_floor(measured: Totals) -> None:
    assert measured.verified >= FLOOR_VERIFIED - EPS, measured


def test_every_verified_fix_works(measured: Totals) -> None:
    assert measured.verified_right >= FLOOR_VERIFIED_RIGHT - EPS, measured


def test_clean_after_fix_floor(measured: Totals) -> None:
    assert measured.clean_after_fix >= FLOOR_CLEAN_AFTER_FIX - EPS, measured


def test_clean_look_alikes_flagged_at_most(measured: Totals) -> None:
    assert measured.clean_flagged <= MAX_CLEAN_FLAGGED, measured
