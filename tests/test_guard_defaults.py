"""A helper that makes its tensors on a device (of a dtype) it takes as a parameter, called
without it: the caller passes the one it has, where it calls the helper; the helper and its
default stay. Post-mortem diagnoses of real failing cells (a simulated GPU for the device)."""

from __future__ import annotations

import re

import torch

from tests._traces import VERIFIED

ANSI = re.compile(r"\x1b\[[0-9;]*m")

MASKS = """
import torch
from torch import nn

class Masks:
    @staticmethod
    def causal(n, device=None):
        device = device if device is not None else torch.device("cuda", 0)
        return torch.triu(torch.full((n, n), float("-inf"), device=device), diagonal=1)

class Cache:
    def __init__(self, device):
        self.device = device
    def metadata(self, n):
        mask = Masks.causal(n)
        return {"mask": mask}

class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qk = nn.Linear(4, 8)
    def forward(self, x, cache):
        meta = cache.metadata(x.shape[0])
        q, k = self.qk(x).chunk(2, dim=-1)
        return (q @ k.t() + meta["mask"]).softmax(-1)
"""

TABLES = """
import torch
from torch import nn

def positions(n, dim, dtype=torch.float32):
    return torch.arange(n * dim, dtype=dtype).reshape(n, dim) / (n * dim)

class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.dim = 4
        self.proj = nn.Linear(4, 2)
    def forward(self, n):
        pos = positions(n, self.dim)
        return self.proj(pos)
"""


def run(ip, cell: str, fake=None):
    if fake is None:
        return ip.run_cell(cell, store_history=False).error_in_exec
    with fake:
        return ip.run_cell(cell, store_history=False).error_in_exec


def diagnosis(capsys) -> str:
    out = ANSI.sub("", capsys.readouterr().out)
    assert "devicelens: " in out, out[-2000:]
    return out[out.index("devicelens: "):]


def test_the_caller_passes_its_device_to_a_helper_that_falls_back_on_another(ip, capsys,
                                                                             fake_cuda):
    """mistral-inference's mask factory falls back on cuda:0 when no device is passed; the
    model and its cache are on cuda:1. The cache's call passes ``device=self.device`` (the
    maintainers' fix); the helper's fallback line is not edited."""
    assert run(ip, MASKS) is None
    with fake_cuda:
        ip.user_ns.update(attn=fake_cuda.to(ip.user_ns["Attention"](), "cuda:1"),
                          cache=ip.user_ns["Cache"](torch.device("cuda", 1)),
                          x=fake_cuda.randn(3, 4, device="cuda:1"))
    capsys.readouterr()
    assert run(ip, "with torch.no_grad():\n    w = attn(x, cache)\n", fake_cuda) is not None
    text = diagnosis(capsys)
    assert "culprit: cache (its Cache.metadata has the line to edit); expected cuda:1" in text
    assert "`Masks.causal` falls back on cuda:0 when its caller passes no `device`" in text
    assert "+ mask = Masks.causal(n, device=self.device)" in text
    assert "device if device is not None" not in text.split("edit:", 1)[1]
    assert VERIFIED in text


def test_the_caller_passes_its_dtype_to_a_helper_left_to_its_default(ip, capsys):
    """The dtype twin: a table made in the helper's default float32 for a float64 head. The
    head passes its weights' dtype where it calls the helper."""
    assert run(ip, TABLES) is None
    ip.user_ns.update(head=ip.user_ns["Head"]().double())
    capsys.readouterr()
    assert run(ip, "with torch.no_grad():\n    y = head(3)\n") is not None
    text = diagnosis(capsys)
    assert "`positions` falls back on float32 when its caller passes no `dtype`" in text
    assert "+ pos = positions(n, self.dim, dtype=next(self.parameters()).dtype)" in text
    assert VERIFIED in text
    assert ip.user_ns["head"].proj.weight.dtype == torch.float64


WARP = """
import torch
from torch import nn

device = torch.device("cuda:0")  # a warp layer's module-level setting, made at import

def warp(img, flow):
    grid = torch.linspace(-1.0, 1.0, flow.shape[-1], device=device)
    return img * (grid + flow).mean()

class Interp(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Linear(4, 4)
    def forward(self, img):
        return warp(img, self.head(img))
"""


def test_a_module_level_device_setting_is_replaced_by_the_functions_own(ip, capsys,
                                                                        fake_cuda):
    """EMA-VFI's warp layer builds its grid on a device fixed at import (the first GPU); the
    frames and the model are on the second. The grid takes its device from what the function
    is given (its image), where it is made; the user's frames and model stay where they are."""
    assert run(ip, WARP) is None
    with fake_cuda:
        ip.user_ns.update(model=fake_cuda.to(ip.user_ns["Interp"](), "cuda:1"),
                          frame=fake_cuda.randn(2, 4, device="cuda:1"))
    capsys.readouterr()
    assert run(ip, "with torch.no_grad():\n    mid = model(frame)\n", fake_cuda) is not None
    text = diagnosis(capsys)
    assert "expected cuda:1" in text and "expected cuda:0" not in text, text
    assert ("+ grid = torch.linspace(-1.0, 1.0, flow.shape[-1], device=img.device)"
            in text), text
    assert VERIFIED in text


DANN = """
import torch
from torch import nn
import torch.nn.functional as F

class DANN(nn.Module):
    def __init__(self):
        super().__init__()
        self.disc = nn.Linear(4, 3)
    def update(self, minibatches):
        device = "cuda"  # hard-coded: the run is on the cpu
        all_x = torch.cat([x for x, y in minibatches])
        disc_out = self.disc(all_x)
        disc_labels = torch.cat([
            torch.full((x.shape[0],), i, dtype=torch.int64, device=device)
            for i, (x, y) in enumerate(minibatches)
        ])
        return F.cross_entropy(disc_out, disc_labels)
"""


def test_a_device_the_function_spells_out_itself_is_replaced_by_its_own(ip, capsys,
                                                                         fake_cuda):
    """DomainBed's DANN ``update`` made its discriminator's labels on ``device = 'cuda'``, a
    local it spells out, for an algorithm run on the cpu: the labels take the device of what
    the method has, in the comprehension that makes them; nothing of the user's moves."""
    assert run(ip, DANN) is None
    ip.user_ns.update(algorithm=ip.user_ns["DANN"]().to("cpu"), device="cpu",  # NB: no GPU
                      batches=[(torch.randn(2, 4), torch.zeros(2)) for _ in range(3)])
    capsys.readouterr()
    assert run(ip, "with torch.no_grad():\n    loss = algorithm.update(batches)\n",
               fake_cuda) is not None
    text = diagnosis(capsys)
    assert "culprit: algorithm (its DANN.update has the line to edit); expected cpu" in text, text
    assert ("+ torch.full((x.shape[0],), i, dtype=torch.int64, "
            "device=next(self.parameters()).device)") in text, text
    assert VERIFIED in text


SWAV = """
import torch
from torch import nn

class SwaVLoss(nn.Module):
    def forward(self, high, low):
        loss = torch.tensor(0.0)
        for i in range(len(high)):
            subloss = torch.tensor(0.0)
            for v in range(len(low)):
                subloss += (high[i] * low[v]).sum()
            loss += subloss / len(low)
        return loss / len(high)
"""


def test_accumulators_made_before_a_loop_take_the_device_of_the_list_handed_over(
        ip, capsys, fake_cuda):
    """lightly's SwaVLoss takes its crops' outputs as lists and sums into two accumulators made
    on the cpu, one before the loop over the crops: both take the device of the list's first
    item (valid before any loop), and the rehearsal proves the two edits together."""
    assert run(ip, SWAV) is None
    with fake_cuda:
        ip.user_ns.update(criterion=ip.user_ns["SwaVLoss"](),
                          high=[fake_cuda.randn(2, 3, device="cuda:0") for _ in range(2)],
                          low=[fake_cuda.randn(2, 3, device="cuda:0") for _ in range(2)])
    capsys.readouterr()
    assert run(ip, "with torch.no_grad():\n    loss = criterion(high, low)\n",
               fake_cuda) is not None
    text = diagnosis(capsys)
    assert "+ subloss = torch.tensor(0.0).to(high[0].device)" in text, text
    assert "+ loss = torch.tensor(0.0).to(high[0].device)" in text, text
    assert VERIFIED in text


LEARNER = """
import torch
from torch import nn

class Learner:
    def __init__(self, device):
        self._device = device
        self._network = nn.Linear(3, 2)
    def replace_fc(self, batches):
        out = []
        for data in batches:
            data = data.to("cuda:0")
            out.append(self._network(data))
        return out
"""


def test_a_pinned_device_is_replaced_by_the_objects_own_underscored_setting(ip, capsys,
                                                                            fake_cuda):
    """PyCIL's and RevisitingCIL's learners keep ``self._device`` and ``self._network`` (one
    leading underscore: the object's own); a ``.cuda()`` pinned in a method fails a run on
    cuda:1. The edit takes the learner's own setting, where it skipped underscored names."""
    assert run(ip, LEARNER) is None
    with fake_cuda:
        learner = ip.user_ns["Learner"](torch.device("cuda", 1))
        learner._network = fake_cuda.to(learner._network, "cuda:1")
        ip.user_ns.update(model=learner, batches=[torch.randn(2, 3)])
    capsys.readouterr()
    assert run(ip, "with torch.no_grad():\n    out = model.replace_fc(batches)\n",
               fake_cuda) is not None
    text = diagnosis(capsys)
    assert "+ data = data.to(self._device)" in text, text
    assert VERIFIED in text


CONTEXT = """
import torch
from torch import nn

platform_device = "cpu"

class Rotary(nn.Module):
    def __init__(self, dim=4, n=6):
        super().__init__()
        inv_freq = 1.0 / (10000 ** (torch.arange(0, dim, 2).float() / dim))
        t = torch.arange(n, device=platform_device, dtype=torch.float32)
        self.register_buffer("cache", torch.einsum("i,j -> ij", t, inv_freq), persistent=False)
"""


def test_a_block_that_sets_the_default_device_decides_which_tensor_strays(ip, capsys):
    """vLLM builds its rotary cache under ``with torch.device(...)`` (meta here): the default
    makes ``inv_freq`` there on purpose, and the positions made on a platform device spelled
    out are the stray (the diagnosis used to expect the cpu and print no fix)."""
    assert ip.run_cell(CONTEXT, store_history=False).error_in_exec is None
    capsys.readouterr()
    err = ip.run_cell('with torch.device("meta"):\n    rotary = Rotary()\n',
                      store_history=False).error_in_exec
    assert err is not None
    text = diagnosis(capsys)
    assert "culprit: `t` in Rotary.__init__ (float32[6] on cpu)" in text, text
    assert "expected meta" in text, text
    assert VERIFIED in text, text
