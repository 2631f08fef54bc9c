"""``%%cuda_safe`` and the post-mortem on a real CUDA device: real autograd, real error texts."""

from __future__ import annotations

import re

import pytest
import torch

from devicelens.guard import DeviceMismatchError

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")]
ANSI = re.compile(r"\x1b\[[0-9;]*m")

SETUP = """
import torch
from torch import nn
import torch.nn.functional as F
torch.manual_seed(0)
torch.backends.cudnn.deterministic = True
model = nn.Sequential(nn.Conv2d(1, 4, 3), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 6 * 6, 3)).cuda()
opt = torch.optim.Adam(model.parameters())
x = torch.randn(8, 1, 8, 8)
labels = torch.randint(0, 3, (8,))
"""

STEP = """
opt.zero_grad()
loss = F.cross_entropy(model(x.cuda()), labels)
loss.backward()
opt.step()
"""


def test_guard_names_labels_on_real_cuda(ip):
    ip.run_cell(SETUP, store_history=False)
    err = ip.run_cell(f"%%cuda_safe --no-preflight\n{STEP}", store_history=False).error_in_exec
    assert isinstance(err, DeviceMismatchError)
    assert err.culprits == ("labels",)
    assert err.report.lines == ("cell line 4: loss = F.cross_entropy(model(x.cuda()), labels)",)
    assert err.fix == 'labels = labels.to("cuda:0")'


def test_autofix_trains_like_the_fixed_cell(ip, capsys):
    ip.run_cell(SETUP, store_history=False)
    assert ip.run_cell(f"%%cuda_safe --autofix\n{STEP}", store_history=False).error_in_exec is None
    assert "labels: cpu -> cuda:0, 1x" in capsys.readouterr().out
    auto = [p.detach().clone() for p in ip.user_ns["model"].parameters()]
    ip.run_cell(SETUP + "labels = labels.cuda()\n" + STEP, store_history=False)
    for a, b in zip(auto, ip.user_ns["model"].parameters(), strict=True):
        assert torch.equal(a, b)


def test_postmortem_on_the_real_conv_message(ip, capsys):
    ip.run_cell(SETUP, store_history=False)
    capsys.readouterr()
    result = ip.run_cell("out = model(x)\n", store_history=False)
    assert isinstance(result.error_in_exec, RuntimeError)
    out = ANSI.sub("", capsys.readouterr().out)
    text = out[out.index("devicelens: "):]
    assert "culprit: x (float32[8, 1, 8, 8] on cpu)" in text
    assert "inside: model[0] (Conv2d)" in text
    assert 'x = x.to("cuda:0")' in text


def test_scalar_cpu_tensors_and_moves_pass_on_real_cuda(ip):
    ip.run_cell("import torch\nx = torch.ones(3, device='cuda')\n", store_history=False)
    cell = "%%cuda_safe\ny = x * torch.tensor(2.0)\nz = x.cpu() + torch.ones(3)\ny.sum()\n"
    result = ip.run_cell(cell, store_history=False)
    assert result.error_in_exec is None and result.result.item() == 6.0


def test_postmortem_fix_is_verified_in_a_kernel_that_uses_its_gpu(ip, capsys):
    """The rehearsal's child cannot touch the GPU its parent uses (CUDA says "initialization
    error" there): the fix is rehearsed on fake tensors, and what torch's bindings would ask of
    the real GPU (the device guard of ``out[:, 0]``, a first allocation) is done on meta."""
    ip.run_cell(SETUP, store_history=False)
    assert torch.cuda.is_initialized()
    capsys.readouterr()
    result = ip.run_cell("out = model(x)[:, 0]\n", store_history=False)
    assert isinstance(result.error_in_exec, RuntimeError)
    text = ANSI.sub("", capsys.readouterr().out)
    text = text[text.index("devicelens: "):]
    assert 'x = x.to("cuda:0")' in text
    assert "verified: rehearsed on a copy of this kernel's state, the cell runs after this fix" \
        in text, text
