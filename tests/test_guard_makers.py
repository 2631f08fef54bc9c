"""Who made the stray: a model whose every weight is on the stray device (a hypernetwork left
on the cpu, whose output the GPU network reads), and a tensor the failing line makes on the
default device, which is no data for the op's scalar to follow. Real failing cells on a
simulated GPU, under ``%%cuda_safe`` and post-mortem."""

from __future__ import annotations

import re

from devicelens.guard import DeviceMismatchError
from tests._traces import VERIFIED

ANSI = re.compile(r"\x1b\[[0-9;]*m")

HYPERNET = """
import torch
from torch import nn
import torch.nn.functional as F

class Main(nn.Module):  # no weights of its own: a hypernetwork gives them
    def forward(self, x, weights):
        h = x
        for i in range(len(weights) // 2):
            h = F.linear(h, weights[2 * i], weights[2 * i + 1])
        return h

class Hyper(nn.Module):
    def __init__(self, shapes):
        super().__init__()
        self.shapes = shapes
        self.embs = nn.Parameter(torch.randn(8))
        self.heads = nn.ModuleList([nn.Linear(8, int(torch.Size(s).numel())) for s in shapes])
    def forward(self, cond_id):
        h = self.embs * (cond_id + 1)
        return [head(h).view(*s) for head, s in zip(self.heads, self.shapes)]

device = "cuda:0"
"""

CONTRAST = """
import torch

class Contrast:
    def __init__(self, nk):
        self.nk = nk
    def __call__(self, x):
        vmin, vmax = x.min(), x.max()
        mu = torch.rand(self.nk) * (vmax - vmin) + vmin
        return (x.reshape(-1, 1) - mu).abs().mean()
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


def _hypernet(ip, fake_cuda) -> None:
    assert run(ip, HYPERNET) is None
    ns = ip.user_ns
    with fake_cuda:
        ns.update(mnet=fake_cuda.to(ns["Main"](), "cuda:0"),
                  hnet=ns["Hyper"]([[6, 4], [6], [3, 6], [3]]),
                  x=fake_cuda.randn(5, 4, device="cuda:0"))


CELL = "with torch.no_grad():\n    W = hnet(0)\n    y = mnet(x, W)\n"


def test_the_hypernetwork_that_made_the_weights_is_moved(ip, capsys, fake_cuda):
    """hypnettorch's tutorial run with the hypernetwork left on the cpu: the weights the cell
    makes with it (``W``) are no fix, the cell makes them again; ``hnet``, every weight of it on
    the cpu, made them, and it moves to the user's configured device."""
    _hypernet(ip, fake_cuda)
    capsys.readouterr()
    assert run(ip, CELL, fake_cuda) is not None
    text = diagnosis(capsys)
    assert "culprit: hnet.embs (float32[8] on cpu); expected cuda:0" in text
    assert 'fix:\n      hnet.to("cuda:0")\n' in text
    assert "W[0] = " not in text
    assert VERIFIED in text


def test_cuda_safe_moves_the_hypernetwork_too(ip, fake_cuda):
    _hypernet(ip, fake_cuda)
    err = run(ip, "%%cuda_safe --no-preflight\n" + CELL, fake_cuda)
    assert isinstance(err, DeviceMismatchError), repr(err)
    assert "culprit: hnet.embs (float32[8] on cpu), argument 2; expected cuda:0" in str(err)
    assert 'hnet.to("cuda:0")' in str(err)


def test_cuda_safe_does_not_follow_a_tensor_the_line_makes_on_the_default_device(ip, fake_cuda):
    """cornucopia's random contrast: ``torch.rand(self.nk)`` (cpu, 16 numbers) times a 0-dim
    statistic of the GPU image. The op's arguments are both temporaries; the bigger one is no
    data a scalar must follow when the line itself makes it on the default device: the image
    stays, the factory gets its device."""
    assert run(ip, CONTRAST) is None
    with fake_cuda:
        ip.user_ns.update(xform=ip.user_ns["Contrast"](16),
                          img=fake_cuda.randn(2, 8, device="cuda:0"))
    err = run(ip, "%%cuda_safe --no-preflight\nwith torch.no_grad():\n    v = xform(img)\n",
              fake_cuda)
    assert isinstance(err, DeviceMismatchError), repr(err)
    text = str(err)
    assert "expected cuda:0" in text and "expected cpu" not in text, text
    assert "+ mu = torch.rand(self.nk, device=x.device) * (vmax - vmin) + vmin" in text
    assert 'img = img.to("cpu")' not in text


TRUNK = """
class Trunked(nn.Module):  # hypnettorch's HMLP: a torch trunk, then one head per weight
    def __init__(self, shapes):
        super().__init__()
        self.shapes = shapes
        self.trunk = nn.Sequential(nn.Linear(8, 8), nn.ReLU())
        self.heads = nn.ModuleList([nn.Linear(8, int(torch.Size(s).numel())) for s in shapes])
    def forward(self, cond):
        h = self.trunk(cond)
        return [head(h).view(*s) for head, s in zip(self.heads, self.shapes)]
"""


def test_a_model_whose_every_weight_is_on_the_stray_device_is_moved_whole(ip, capsys,
                                                                         fake_cuda):
    """The trail reaches ``self.trunk(cond)``, a torch module of ``hnet``'s; every weight of
    ``hnet`` is on the cpu, so ``hnet`` moves, not its trunk alone (its heads would stay)."""
    import torch

    _hypernet(ip, fake_cuda)
    assert run(ip, TRUNK) is None
    ip.user_ns.update(hnet=ip.user_ns["Trunked"]([[6, 4], [6], [3, 6], [3]]),
                      cond=torch.randn(8))
    capsys.readouterr()
    assert run(ip, "with torch.no_grad():\n    W = hnet(cond)\n    y = mnet(x, W)\n",
               fake_cuda) is not None
    text = diagnosis(capsys)
    assert "culprit: hnet (Trunked, makes W[0]); expected cuda:0" in text
    assert "note: hnet makes it with its own weights, every one on cpu" in text
    # NB: the rehearsal finds what the moved model then meets: its cpu input
    assert 'fix:\n      hnet.to("cuda:0")\n      cond = cond.to("cuda:0")\n' in text
    assert "hnet.trunk.to(" not in text
    assert VERIFIED in text


PRIOR = """
import torch
from torch import nn
from torch.distributions import HalfCauchy

class Prior(nn.Module):  # GPyTorch's HalfCauchyPrior: a distribution built from a buffer
    def __init__(self, scale):
        super().__init__()
        self.register_buffer("_scale", torch.as_tensor(scale))
        self._dist = HalfCauchy(self._scale, validate_args=False)
    def rsample(self, shape=torch.Size()):
        return self._dist.rsample(shape)
"""


def test_a_distribution_the_moved_object_still_holds_on_the_cpu_is_converted_where_read(
        ip, capsys, fake_cuda):
    """``prior.to("cuda:0")`` moved its buffer, not the distribution built from it: its
    samples are made on the cpu. The prior's own method converts them to its buffer's device
    (the edit GPyTorch's issue asks for), not the cell's line that takes them."""
    import torch

    assert run(ip, PRIOR) is None
    with fake_cuda:
        ip.user_ns.update(prior=fake_cuda.to(ip.user_ns["Prior"](torch.ones(2)), "cuda:0"),
                          raw=fake_cuda.randn(2, device="cuda:0"))
    capsys.readouterr()
    assert run(ip, "samples = prior.rsample()\nlengthscale = raw.exp() + samples\n",
               fake_cuda) is not None
    text = diagnosis(capsys)
    assert "culprit: prior (its Prior.rsample has the line to edit); expected cuda:0" in text
    assert "+ return self._dist.rsample(shape).to(self._scale.device)" in text
    assert "samples = samples.to(" not in text and '.to("cuda:0")' not in text
    assert VERIFIED in text
