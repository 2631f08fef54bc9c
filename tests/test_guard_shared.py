"""Tensors that are a namespace tensor's data under a new Python object (``state_dict()``
values, ``.detach()``): named after that tensor by storage and layout, never by value.

An EMA copy kept on the cpu averages in a GPU model's weights through ``state_dict()``: the
culprit is the EMA's own weight in the user's names; the fix keeps both models where they are and
moves the values across on the update's line.
"""

from __future__ import annotations

import re

import pytest
import torch
from torch import nn

from devicelens.guard import DeviceMismatchError
from devicelens.guard.diagnosis._blame import Namer
from tests.test_guard_messages import IMPORTS, _apply, _edits, _fix_code, _run

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")
ANSI = re.compile(r"\x1b\[[0-9;]*m")

EMA = IMPORTS + (
    "class Ema(nn.Module):\n"
    "    def __init__(self, model):\n"
    "        super().__init__()\n"
    "        self.module = nn.Linear(4, 4)\n"
    "        self.module.load_state_dict(model.state_dict())\n"
    "    def update(self, model):\n"
    "        for ema_v, model_v in zip(self.module.state_dict().values(),\n"
    "                                  model.state_dict().values()):\n"
    "            ema_v.lerp_(model_v, weight=0.01)\n"
    "net = nn.Linear(4, 4)\n"
    "ema = Ema(net)\n"
    "net.to('cuda:0')\n"
)
CULPRIT = "  culprit: ema.module.weight (float32[4, 4] on cpu)"


def test_state_dict_values_are_named_after_the_parameters() -> None:
    model = nn.Sequential(nn.Linear(3, 2), nn.BatchNorm1d(2))
    namer = Namer({"model": model})
    sd = model.state_dict()
    names = {k: namer.tensor(v) for k, v in sd.items()}
    assert names["0.weight"] is not None and names["0.weight"].name == "model[0].weight"
    assert names["0.weight"].role == "parameter"
    assert names["1.running_mean"] is not None
    assert names["1.running_mean"].name == "model[1].running_mean"
    # NB: same storage, another layout: another tensor, not the parameter
    assert namer.tensor(model[0].weight.detach().t()) is None
    assert namer.tensor(model[0].weight.detach()[1:]) is None
    assert namer.tensor(model[0].weight.detach().clone()) is None


def test_detached_meta_and_fake_cuda_tensors_are_matched_too(fake_cuda) -> None:
    lin = nn.Linear(3, 2, device="meta")
    namer = Namer({"lin": lin})
    found = namer.tensor(lin.bias.detach())
    assert found is not None and found.name == "lin.bias"
    x = fake_cuda.randn(4, 3)
    y = fake_cuda.randn(4, 3)
    namer = Namer({"x": x, "y": y})
    with fake_cuda:
        dx = x.detach()
    found = namer.tensor(dx)
    assert found is not None and found.name == "x"


def test_post_mortem_blames_the_cpu_ema_and_edits_the_update(ip, capsys, fake_cuda) -> None:
    assert _run(ip, EMA, fake_cuda) is None
    capsys.readouterr()
    assert _run(ip, "ema.update(net)\n", fake_cuda) is not None
    out = ANSI.sub("", "".join(capsys.readouterr()))
    text = out[out.index("devicelens: "):]
    assert CULPRIT + "; expected cuda:0" in text.splitlines(), text
    assert _fix_code(text) == "", text
    assert _edits(text) == [(["ema_v.lerp_(model_v, weight=0.01)"],
                             ["ema_v.lerp_(model_v.to(ema_v.device), weight=0.01)"])]
    assert "  note: ema and net sit on different devices; an in-place update cannot move ema's " \
        "tensor, so the line brings net's values to it" in text.splitlines(), text
    (old, new), = _edits(text)
    assert _run(ip, _apply(EMA, old, new), fake_cuda) is None
    assert _run(ip, "ema.update(net)\n", fake_cuda) is None


def test_cuda_safe_names_the_same_weight_and_edit(ip, fake_cuda) -> None:
    assert _run(ip, EMA, fake_cuda) is None
    err = _run(ip, "%%cuda_safe --no-preflight\nema.update(net)\n", fake_cuda)
    assert isinstance(err, DeviceMismatchError), repr(err)
    assert CULPRIT + ", argument 1; expected cuda:0" in str(err).splitlines(), str(err)
    assert err.report.fixes == ()
    assert [e.new for e in err.report.edits] == [
        ("            ema_v.lerp_(model_v.to(ema_v.device), weight=0.01)",)]


def test_at_a_cell_s_top_level_the_model_is_moved(ip, capsys, fake_cuda) -> None:
    """NB: no function of the user's to edit: where the models go is the user's line to write."""
    assert _run(ip, EMA, fake_cuda) is None
    capsys.readouterr()
    cell = "with torch.no_grad():\n    ema.module.weight.lerp_(net.weight, 0.01)\n"
    assert _run(ip, cell, fake_cuda) is not None
    out = ANSI.sub("", "".join(capsys.readouterr()))
    text = out[out.index("devicelens: "):]
    assert CULPRIT + "; expected cuda:0" in text.splitlines(), text
    assert _edits(text) == [] and _fix_code(text) == 'ema.to("cuda:0")', text
    assert _run(ip, _fix_code(text), fake_cuda) is None
    assert _run(ip, cell, fake_cuda) is None


def test_a_model_s_own_stale_cache_still_moves_the_cpu_model(ip, capsys) -> None:
    """NB: the other operand is the running model's own attribute: the model is not moved to
    it (another model's weights would count as data)."""
    setup = IMPORTS + (
        "class Net(nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.fc = nn.Linear(4, 4)\n"
        "        self.cache = torch.zeros(4, device='meta')\n"
        "    def forward(self, x):\n"
        "        return self.fc(x) + self.cache\n"
        "net = Net()\nx = torch.randn(2, 4)\n"
    )
    assert _run(ip, setup, None) is None
    capsys.readouterr()
    assert _run(ip, "out = net(x)\n", None) is not None
    out = ANSI.sub("", "".join(capsys.readouterr()))
    text = out[out.index("devicelens: "):]
    assert "expected cpu" in text, text
    assert not torch.is_tensor(ip.user_ns.get("out")), text
