"""devicelens's accuracy on a seventh of the corpus stays at least where it is: the corpus check
``make test`` can afford (``make corpus`` scores every case against test_corpus_score.py's floors).

The seventh is chosen by a hash of each case's name (``_harness.in_sample``): every family and
every held-out set is in it, and adding cases never changes which of the others are.
"""

from __future__ import annotations

import pytest

from tests.corpus._floors import Floors
from tests.corpus._harness import in_sample, load_cases
from tests.corpus.scorer import Totals, score, totals

pytestmark = pytest.mark.timeout(1200)

# Measured on the seventh (432 of 3109 cases: 260 failing, 172 look-alikes), on the code of the
# whole corpus's floors: named 208/260, precision 97.8 % over 239, fix works 254/260, verified
# 252/260 (each a fix that works), clean after fix 259/260, 1 of 172 look-alikes flagged (set
# 182's OneTrainer layer offload, a model split on purpose by an object that moves its layers
# when they run: test_corpus_score.py).
# NB: one case in seven since the corpus passed 2,100 cases (a sixth took a fresh clone's
# `make test` to 14 min 59 s; one in six since 1,400, one in four before); named, fix works,
# verified and clean after fix one below, precision a little below, as there (a loaded machine).
SAMPLE = Floors(named=206 / 260, precision=0.975, precision_cases=237, fix_works=252 / 260,
                verified=250 / 260, clean_after_fix=258 / 260, clean_flagged=1)


@pytest.fixture(scope="module")
def measured() -> Totals:
    return totals(score([c for c in load_cases() if in_sample(c.name)]))


def test_the_sample_is_at_or_above_its_floors(measured: Totals) -> None:
    assert SAMPLE.missed(measured) == [], measured


def test_the_sample_holds_every_family_and_simulation() -> None:
    cases = load_cases()
    chosen = [c for c in cases if in_sample(c.name)]
    assert {c.family for c in chosen} == {c.family for c in cases}
    assert {c.sim for c in chosen} == {c.sim for c in cases}
    assert len(cases) // 8 < len(chosen) < len(cases) // 4


def test_a_total_under_a_floor_is_named_with_both_numbers() -> None:
    floors = Floors(named=0.9, precision=0.95, precision_cases=10, fix_works=0.8, verified=0.7,
                    clean_after_fix=0.9, clean_flagged=1)
    t = Totals(cases=20, failing=15, named=0.8, named_pm=0.8, named_cs=0.8, precision=0.96,
               precision_cases=9, fix_works=0.8, verified=0.7, verified_right=1.0,
               clean_after_fix=0.95, clean=5, clean_flagged=2, crashed=0)
    assert floors.missed(t) == ["named: 0.8 against 0.9", "precision_cases: 9 against 10",
                                "clean_flagged (at most): 2 against 1"]
    assert floors.missed(t.__class__(**{**t.__dict__, "named": 0.9, "precision_cases": 10,
                                        "clean_flagged": 1})) == []
