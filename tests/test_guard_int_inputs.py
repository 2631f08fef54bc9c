"""Integer data fed to a float model ("mat1 and mat2 must have the same dtype, but got Int and
Float", "expected scalar type Int but found Float"): the integers are the culprit and the fix
casts them, in a real IPython shell, post-mortem and under ``%%cuda_safe --dtype``.
"""

from __future__ import annotations

import re

import pytest

from tests._traces import VERIFIED

pytestmark = pytest.mark.filterwarnings("ignore:PyTorch was compiled without cuDNN")
ANSI = re.compile(r"\x1b\[[0-9;]*m")

SETUP = """import torch
from torch import nn
value_net = nn.Sequential(nn.Linear(30, 64), nn.ReLU(), nn.Linear(64, 1))
state = torch.randint(0, 10, (1, 30), dtype=torch.int32)
mask = torch.ones(1, 30, dtype=torch.bool)
"""


def run(ip, capsys, cell: str) -> str:
    capsys.readouterr()
    ip.run_cell(cell, store_history=False)
    out = capsys.readouterr()
    return ANSI.sub("", out.out + out.err)


def diagnosis(out: str) -> str:
    assert "devicelens: " in out, out[-2000:]
    return out[out.index("devicelens: "):]


@pytest.fixture
def ns(ip):
    ip.run_cell(SETUP, store_history=False)
    return ip.user_ns


def test_an_int_state_into_a_float_linear_is_named_and_cast(ip, ns, capsys):
    text = diagnosis(run(ip, capsys, "value = value_net(state)\n"))
    assert text.splitlines()[0] == "devicelens: tensors on different dtypes: float32, int32"
    assert "culprit: state (int32[1, 30] on cpu)" in text
    assert "inside: value_net[0] (Linear)" in text
    fix = text[text.index("fix:"):].splitlines()[1].strip()
    exec(fix, ns)  # NB: the printed fix, run as the user would; then the cell runs
    assert ns["state"].dtype.is_floating_point
    assert ip.run_cell("value = value_net(state)", store_history=False).success
    assert tuple(ns["value"].shape) == (1, 1)


def test_the_guard_says_the_same_before_the_op_runs(ip, ns, capsys):
    text = run(ip, capsys, "%%cuda_safe --dtype\nvalue = value_net(state)\n")
    assert "culprit: state (int32[1, 30] on cpu)" in text
    assert "value" not in ns  # NB: stopped before it ran


def test_an_index_is_not_blamed_when_a_float_disagrees(ip, ns, capsys):
    """The integers are culprits only when the floats agree: here the float64 input is."""
    ns.update(lin=ns["nn"].Linear(30, 2), x=ns["torch"].ones(1, 30, dtype=ns["torch"].float64),
              idx=ns["torch"].tensor([0, 1]))
    text = diagnosis(run(ip, capsys, "y = lin(x)[:, idx]\n"))
    culprits = [ln.strip() for ln in text.splitlines() if ln.strip().startswith("culprit:")]
    assert culprits == ["culprit: x (float64[1, 30] on cpu), `input` in Linear.forward; "
                        "expected float32"]
    assert text.rstrip().endswith("fix:\n      x = x.float()"
                                   + "\n" + VERIFIED)


def test_uint8_indices_read_as_a_mask_are_cast_to_long_and_a_bool_mask_is_not_blamed(
        ip, ns, capsys):
    """pytorch-crf's tags as uint8: ``start_transitions[tags[0]]`` reads them as a mask and
    fails on its shape. The uint8 tags are the culprit, cast to long; a bool mask of the wrong
    shape fails the same way and is no dtype problem (no culprit, no cast)."""
    ip.run_cell("trans = torch.randn(5)\ntags = torch.randint(0, 5, (3, 2), dtype=torch.uint8)\n"
                "wrong = torch.ones(3, dtype=torch.bool)\n", store_history=False)
    text = diagnosis(run(ip, capsys, "score = trans[tags[0]]\n"))
    assert "culprit: tags (uint8[3, 2] on cpu); expected int64" in text
    assert "tags = tags.long()" in text
    assert VERIFIED in text
    out = run(ip, capsys, "picked = trans[wrong]\n")
    assert "The shape of the mask [3]" in out
    assert "culprit:" not in out and ".long()" not in out
