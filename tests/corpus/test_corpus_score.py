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

# Measured on 424 cases (329 failing, 95 clean look-alikes; 301 of them the held-out sets 5 to 16,
# HELDOUT.txt); tests/corpus/FAILURES.md explains the baseline and docs/accuracy.md every held-out
# miss (goals: named 95 %, fix works 90 %, precision 95 %, no clean look-alike flagged). Now: named
# 281/329, precision 98.1 % over 292 cases (37 diagnoses name no namespace object: no precision,
# left out), fix works 309/329, clean after fix 325/329, 2 of the 95 look-alikes flagged (set 13's
# CLIP attn_mask and set 14's CW attack labels, not tuned away). Verified (the rehearsal ran the
# cell after the fix): 296/329, and every fix marked verified works when applied as printed: that
# share is held at 100 %.
# NB: a change that adds cases re-measures these (new cases can lower a total): sets 14 to 16
# (81 cases, each scored on first contact before any change made for it) came in with this
# measurement. A fix that works and does harm is not counted as one.
FLOOR_NAMED = 281 / 329
FLOOR_PRECISION = 0.98  # NB: a mean of per-case precisions (98.12 % measured)
MIN_PRECISION_CASES = 292  # NB: naming nothing must not become a way to keep precision up
FLOOR_FIX_WORKS = 309 / 329
# NB: one below the measured 296: a rehearsal that a loaded 2-core machine slows past its time
# limit says "not verified" (never a wrong "verified")
FLOOR_VERIFIED = 295 / 329
FLOOR_VERIFIED_RIGHT = 1.0  # NB: "verified" is a promise: the fix, applied as printed, works
FLOOR_CLEAN_AFTER_FIX = 325 / 329
MAX_CLEAN_FLAGGED = 2  # NB: set 13's CLIP and set 14's CW look-alikes (docs/accuracy.md)
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
