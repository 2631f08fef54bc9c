"""devicelens's accuracy on the whole corpus stays at least where it is (``make corpus``: it
prints the table, then checks these floors on the same results).

``make test`` checks the floors of a sixth of the corpus instead (test_corpus_sample.py).
"""

from __future__ import annotations

import json
import os

import pytest

from tests.corpus._floors import Floors
from tests.corpus._harness import load_cases
from tests.corpus.scorer import Totals, score, totals

# NB: the module fixture runs the scorer (two interpreters at a time) inside the first test's setup
pytestmark = [pytest.mark.timeout(2400), pytest.mark.corpus]

#: the results ``make corpus`` already has (the scorer's ``--json``), checked without a re-run
RESULTS = "DEVICELENS_CORPUS_RESULTS"

# Measured on 1768 cases (1279 failing, 489 clean look-alikes; 1645 of them the held-out sets 5
# to 82, HELDOUT.txt), one run (1124 s on 2 cores): named 1092/1279, precision 97.3 % over 1170
# cases (109 diagnoses name no namespace object: no precision, left out), fix works 1235/1279,
# verified 1233/1279 (every one a fix that works as printed: held at 100 %), clean after fix
# 1260/1279, 3 of 489 look-alikes flagged (set 55's
# pytorch-spiking: a factory without a device in a branch its caller never takes; set 58's
# AOTInductor model, which keeps its scatter buffers on the cpu on purpose, and gpt-fast's loop
# temporaries).
# docs/accuracy.md explains every held-out miss; tests/corpus/FAILURES.md the baseline.
# NB: named, fix works and verified one below what was measured: a rehearsal that a loaded
# 2-core machine slows past its time limit says "not verified" (never a wrong "verified") and
# keeps the failing line's names; precision a little below for the same reason. A fix that
# works and does harm is not counted as one.
WHOLE = Floors(named=1091 / 1279, precision=0.972, precision_cases=1169, fix_works=1234 / 1279,
               verified=1232 / 1279, clean_after_fix=1259 / 1279, clean_flagged=3)


@pytest.fixture(scope="module")
def measured() -> Totals:
    path = os.environ.get(RESULTS)
    if path:
        with open(path) as f:
            results = json.load(f)["cases"]
        names = sorted(c.name for c in load_cases())
        assert sorted(r["case"] for r in results) == names, (
            f"{path} holds {len(results)} of the {len(names)} cases: score them all")
        return totals(results)
    return totals(score())


def test_the_whole_corpus_is_at_or_above_its_floors(measured: Totals) -> None:
    assert WHOLE.missed(measured) == [], measured
