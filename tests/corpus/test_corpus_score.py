"""devicelens's accuracy on the whole corpus stays at least where it is (``make corpus``: it
prints the table, then checks these floors on the same results).

``make test`` checks the floors of a seventh of the corpus instead (test_corpus_sample.py).
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

# Measured on 3109 cases (1906 failing, 1203 clean look-alikes; 2986 of them the held-out sets 5
# to 201, HELDOUT.txt), one run (2735 s on 2 cores, beside the unit tests) and the 281 cases the
# changes after it could touch scored again on the final code: named 1567/1906, precision 97.0 %
# over 1713 cases (193 diagnoses name no namespace object: no precision, left out), fix works
# 1828/1906, verified 1823/1906 (all but one a fix that works as printed), clean after fix
# 1887/1906, 13 of 1203 look-alikes flagged (set 55's pytorch-spiking: a factory without a device
# in a branch its caller never takes; set 58's AOTInductor model, which keeps its scatter buffers
# on the cpu on purpose, and gpt-fast's loop temporaries; set 86's DANN_py3, whose optimizer does
# update stale parameters on the simulated device: Module.to() to and from meta makes new ones;
# set 95's lightly MoCo loss, whose memory bank its forward moves through what a submodule
# returns; set 99's FACIL, whose `task_cls` is read only to build another cpu attribute; set
# 129's SAM 2 offload, whose state declares the cpu as its storage device;
# set 131's NASBench-PyTorch, whose `torch.tensor(channels)` a plain function only compares and
# slices with; set 132's Decision Transformer, whose default mask is made in a branch its caller
# never takes; set 144's ultralytics Detect head, whose setup leaves the image on the cpu beside
# the model it moved, which `%devices` rightly warns of: the case's own cell moves it; set 150's
# FrEIA whitening tensors, handed to the model's `append` before it moved; set 182's OneTrainer
# layer offload, a model split on purpose by a conductor object that moves each layer when it
# runs). Synthcity's TabDDPM (set 115) and DAC's quantizer (set 148) are silent since the
# forward lint proves numbers and follows writes into a tensor made right there, and set 179's
# scyan prior since the methods only ``__init__`` calls are read as its construction; none of
# the 72 look-alikes of sets 155 to 166 is flagged, none of the 84 of sets 167 to 180, one of
# the 42 of sets 181 to 187 (OneTrainer's, above), none of the 42 of sets 188 to 194, and one of
# the 42 of sets 195 to 201 (MiniGPT-4's low-resource demo, whose stand-in keeps its LLaMA in
# float32 outside the autocast block beside a half ViT: a warning is what such a model gets).
# The one verified fix that does not work as printed is set 91's neuralforecast loss: it makes
# ``horizon_weight`` on the cpu when it is None, inside the failing call; the rehearsal runs on
# the kernel the failure left, where the attribute exists, and moving it there makes the cell
# run, but from a fresh start the printed move meets None. Held at that one (a new case,
# re-measured), not lowered further.
# docs/accuracy.md explains every held-out miss; tests/corpus/FAILURES.md the baseline.
# NB: named, fix works and verified one below what was measured: a rehearsal that a loaded
# 2-core machine slows past its time limit says "not verified" (never a wrong "verified") and
# keeps the failing line's names; precision a little below for the same reason. A fix that
# works and does harm is not counted as one.
WHOLE = Floors(named=1564 / 1906, precision=0.970, precision_cases=1707, fix_works=1826 / 1906,
               verified=1821 / 1906, clean_after_fix=1885 / 1906, clean_flagged=13,
               verified_right=1821 / 1822)


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
