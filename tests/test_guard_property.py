"""A tensor made by a user's ``@property`` (read by the tracer from its source, never called)
with the default dtype, mixed into half-precision data: the edit converts it where it is read.
Real IPython shell; post-mortem and ``%%cuda_safe --dtype`` say the same.
"""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.filterwarnings("ignore:PyTorch was compiled without cuDNN")
ANSI = re.compile(r"\x1b\[[0-9;]*m")

SETUP = '''import torch
from torch import nn

class Lengths:
    def __init__(self, lengths, n):
        self.lengths, self.n = lengths, n

    @property
    def weights(self):
        return (torch.arange(self.n)[None, :] < self.lengths[:, None]).float()

class Pool(nn.Module):
    def forward(self, x, lengths):
        w = x * lengths.weights[:, :, None]
        return torch.bmm(w.transpose(1, 2), x)

pool = Pool()
x = torch.randn(2, 5, 3).half()
lengths = Lengths(torch.tensor([5, 2]), 5)
'''
EDIT = ("      - w = x * lengths.weights[:, :, None]\n"
        "      + w = x * lengths.weights.to(x.dtype)[:, :, None]\n")


def run(ip, capsys, cell: str) -> str:
    capsys.readouterr()
    ip.run_cell(cell, store_history=False)
    out = capsys.readouterr()
    return ANSI.sub("", out.out + out.err)


@pytest.fixture
def ns(ip):
    ip.run_cell(SETUP, store_history=False)
    return ip.user_ns


def test_the_post_mortem_edits_the_line_that_reads_the_property(ip, ns, capsys):
    out = run(ip, capsys, "out = pool(x, lengths)\n")
    text = out[out.index("devicelens: "):]
    assert "expected float16" in text
    assert "edit: in `pool` (Pool.forward, cell" in text  # NB: whose code, in the user's name
    assert EDIT in text
    # NB: the edit, applied to the user's code, makes the cell run
    ip.run_cell(SETUP.replace("x * lengths.weights[:, :, None]",
                              "x * lengths.weights.to(x.dtype)[:, :, None]"),
                store_history=False)
    assert ip.run_cell("out = pool(x, lengths)", store_history=False).success
    assert ns["out"].dtype == ns["torch"].float16


def test_the_guard_gives_the_same_edit_before_the_op_runs(ip, ns, capsys):
    text = run(ip, capsys, "%%cuda_safe --dtype\nout = pool(x, lengths)\n")
    assert "expected float16" in text
    assert "edit: in `pool` (Pool.forward, cell" in text
    assert EDIT in text
    assert "out" not in ns
