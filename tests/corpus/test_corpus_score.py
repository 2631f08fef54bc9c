"""devicelens's accuracy on the whole corpus stays at least where it is (``make corpus``: it
prints the table, then checks these floors on the same results).

``make test`` checks the floors of a third of the corpus instead (test_corpus_sample.py).
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

# Measured on 508 cases (394 failing, 114 clean look-alikes; 385 of them the held-out sets 5 to
# 19, HELDOUT.txt), one run (375 s on 2 cores): named 351/394, precision 98.1 % over 353 cases
# (41 diagnoses name no namespace object: no precision, left out), fix works 370/394, verified
# 355/394 (every one a fix that works as printed: held at 100 %), clean after fix 390/394, 2 of
# 114 look-alikes flagged (set 13's CLIP attn_mask; set 19's OpenMHC, whose %%cuda_safe run the
# simulated device cannot finish).
# docs/accuracy.md explains every held-out miss; tests/corpus/FAILURES.md the baseline.
# NB: named and verified one below what was measured: a rehearsal that a loaded 2-core machine
# slows past its time limit says "not verified" (never a wrong "verified") and keeps the failing
# line's names; precision a little below for the same reason. A fix that works and does harm is
# not counted as one.
WHOLE = Floors(named=350 / 394, precision=0.978, precision_cases=352, fix_works=370 / 394,
               verified=354 / 394, clean_after_fix=390 / 394, clean_flagged=2)


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
