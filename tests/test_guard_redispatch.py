"""A model dispatched over two devices (``device_map="auto"``: each layer on its device, with a
hook that moves its inputs there), then moved whole to one: the model is the culprit, and the
edit loads it on that device where it is loaded, in a cell or in the ``__init__`` of the object
that holds it (MiniGPT-4's demo, LeRobot's SmolVLA).

Real IPython shell with devicelens loaded, fake ``cuda:0`` and ``cuda:1`` (``FakeTensorMode``,
no autograd); the loader is a stand-in for transformers + accelerate that keeps what matters:
``hf_device_map`` and a forward pre-hook per placed block.
"""

from __future__ import annotations

import pytest

from tests._traces import VERIFIED
from tests.test_guard_handle import _culprits, _diagnosis
from tests.test_guard_messages import IMPORTS, _apply, _edits, _run

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

LOADER = IMPORTS + '''
def _align(device):
    def pre_forward(module, args):
        return tuple(a.to(device) for a in args)
    return pre_forward

class Causal(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4), nn.Linear(4, 4)])
    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    @classmethod
    def from_pretrained(cls, path, device_map=None):
        model = cls()
        if device_map == "auto":
            device_map = {"layers.0": "cuda:0", "layers.1": "cuda:1"}
        model.hf_device_map = dict(device_map)
        for name, dev in model.hf_device_map.items():
            dev = f"cuda:{dev}" if isinstance(dev, int) else dev  # NB: as accelerate reads it
            part = model.get_submodule(name) if name else model
            part.to(dev)
            part.register_forward_pre_hook(_align(torch.device(dev)))
        return model
'''

CALL = "with torch.no_grad():\n    y = {}(x)\n"


def _post_mortem(ip, capsys, fake, setup: str, cell: str) -> list[str]:
    assert _run(ip, setup, fake) is None
    capsys.readouterr()
    assert _run(ip, cell, fake) is not None
    return _diagnosis("".join(capsys.readouterr()))


IN_A_CELL = LOADER + '''
lm = Causal.from_pretrained("tiny", device_map="auto")
lm.to("cuda:0")
x = torch.randn(2, 4)
'''

HELD = LOADER + '''
class Chat(nn.Module):
    def __init__(self):
        super().__init__()
        self.lm = Causal.from_pretrained(
            "tiny",
            device_map="auto",
        )

chat = Chat().to("cuda:0")
x = torch.randn(2, 4)
'''


def test_a_model_moved_after_dispatch_is_named_and_loaded_where_it_was_moved(
        ip, capsys, fake_cuda) -> None:
    lines = _post_mortem(ip, capsys, fake_cuda, IN_A_CELL, CALL.format("lm"))
    assert _culprits(lines)[0] == (
        "  culprit: lm (dispatched over cuda:0, cuda:1, then moved whole to cuda:0); "
        "expected cuda:0"), lines
    assert any("its hooks still send each layer's inputs" in ln for ln in lines), lines
    (old, new), = _edits("\n".join(lines))
    # NB: the rehearsal runs the edited statement of the earlier cell again, then the cell
    assert lines[-1] == VERIFIED, lines
    assert (old, new) == (['lm = Causal.from_pretrained("tiny", device_map="auto")'],
                          ['lm = Causal.from_pretrained("tiny", device_map={"": 0})']), lines
    assert _run(ip, _apply(IN_A_CELL, old, new), fake_cuda) is None
    assert _run(ip, CALL.format("lm"), fake_cuda) is None


def test_the_load_in_init_of_the_object_holding_the_model_is_edited(ip, capsys,
                                                                    fake_cuda) -> None:
    lines = _post_mortem(ip, capsys, fake_cuda, HELD, CALL.format("chat.lm"))
    assert _culprits(lines)[0] == (
        "  culprit: chat.lm (dispatched over cuda:0, cuda:1, then moved whole to cuda:0); "
        "expected cuda:0"), lines
    (old, new), = _edits("\n".join(lines))
    assert (old, new) == (['device_map="auto",'], ['device_map={"": 0},']), lines
    # NB: the object was built before the edit: re-running the failing cell cannot prove it
    assert lines[-1].startswith("  not verified: the edit is in `Chat.__init__`, which ran "
                                "when the object was built"), lines
    assert _run(ip, _apply(HELD, old, new), fake_cuda) is None
    assert _run(ip, CALL.format("chat.lm"), fake_cuda) is None


def test_a_model_dispatched_and_left_so_is_no_such_culprit(ip, capsys, fake_cuda) -> None:
    # NB: dispatched and not moved, its hooks and weights agree: it runs
    setup = LOADER + 'lm = Causal.from_pretrained("tiny", device_map="auto")\n' \
                     'x = torch.randn(2, 4)\n'
    assert _run(ip, setup, fake_cuda) is None
    capsys.readouterr()
    assert _run(ip, CALL.format("lm"), fake_cuda) is None
    assert "devicelens: " not in capsys.readouterr().out


BUILT_IN_THE_CELL = IMPORTS + '''
def convert(bounds):
    A2 = torch.cat([-bounds, bounds], dim=0)
    b2 = torch.cat([-bounds[:, :1], bounds[:, :1]], dim=0)
    return A2, b2

class Sampler:
    def __init__(self, A, b, bounds):
        A2, b2 = convert(bounds)
        A = torch.cat([A, A2], dim=0)
        b = torch.cat([b, b2], dim=0)
        self.A, self.b = A, b

def samples(A, b, bounds):
    bounds_cpu = bounds.cpu()
    return Sampler(A, b, bounds_cpu)

A = torch.randn(3, 4, device="cuda:0")
b = torch.randn(3, 1, device="cuda:0")
bounds = torch.randn(2, 4, device="cuda:0")
'''


def test_an_edit_of_init_the_failing_cell_runs_again_is_rehearsed_as_any_edit(
        ip, capsys, fake_cuda) -> None:
    # NB: botorch's HitAndRunPolytopeSampler is built by the cell (``optimize_acqf``): its
    # ``__init__`` runs again with each round's edit, line after line, and the fix is verified
    lines = _post_mortem(ip, capsys, fake_cuda, BUILT_IN_THE_CELL,
                         "with torch.no_grad():\n    s = samples(A, b, bounds)\n")
    assert lines[-1] == VERIFIED, lines


def test_a_model_whose_weights_all_sit_on_meta_is_no_model_moved_after_dispatch() -> None:
    # NB: accelerate's cpu/disk offload keeps the offloaded weights on meta: a map that spreads
    # the model over several places beside weights all on meta is offload, not a moved model
    import torch
    from torch import nn

    from devicelens.guard.diagnosis._blame import Namer
    from devicelens.guard.diagnosis._redispatch import moved_after_dispatch

    model = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2))
    model.hf_device_map = {"0": "cpu", "1": "disk"}
    ns = {"model": model}
    found = moved_after_dispatch("device", [model], Namer(ns), ns.get, [])
    assert found is not None and found.culprit.named.name == "model"  # NB: all on the cpu
    model.to(torch.device("meta"))
    assert moved_after_dispatch("device", [model], Namer(ns), ns.get, []) is None
