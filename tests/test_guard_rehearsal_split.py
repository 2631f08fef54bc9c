"""The rehearsal on a model split over two GPUs on purpose (a device map): the fix mends what the
running code makes on the wrong GPU, and never undoes the split. Post-mortem of a real failing
cell on a simulated GPU, through a real IPython shell."""

from __future__ import annotations

import re

from tests._traces import VERIFIED

ANSI = re.compile(r"\x1b\[[0-9;]*m")

SPLIT = """
import torch
from torch import nn

class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.k_proj = nn.Linear(4, 4)
        self.v_proj = nn.Linear(4, 4)

    def setup_cache(self, device):
        self.key_states = torch.zeros(1, 2, 4, device=device)
        self.value_states = torch.zeros(1, 2, 4, device=device)

    def update_cache(self, k, v):
        k_out = torch.cat([self.key_states, k], dim=1)
        v_out = torch.cat([self.value_states, v], dim=1)
        return k_out, v_out

    def forward(self, h):
        k, v = self.update_cache(self.k_proj(h), self.v_proj(h))
        return h + k.sum(1, keepdim=True) + v.sum(1, keepdim=True)

class Layer(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = Attention()

    def forward(self, h):
        return self.attn(h)

def align(module, args):
    device = next(module.parameters()).device
    return tuple(a.to(device) for a in args)

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([Layer(), Layer()])

    def forward(self, h):
        for layer in self.layers:
            layer.attn.setup_cache(h.device)
        for layer in self.layers:
            h = layer(h)
        return h
"""


def test_a_cache_the_forward_makes_on_the_first_gpu_is_mended_where_it_is_read(ip, capsys,
                                                                               fake_cuda):
    """RecurrentGemma over two GPUs: every layer's cache is made where the input is (cuda:0),
    and the layer on cuda:1 meets it. Moving the cache in the namespace does not hold (the
    forward makes it again), nor does moving the key cache alone; the layer bound to the
    leftover loop variable ``layer`` must not be moved whole (it would undo the device map).
    The two lines that read the caches are edited, and the cache of the layer on cuda:0, which
    sits with its layer, is no culprit."""
    assert ip.run_cell(SPLIT, store_history=False).error_in_exec is None
    with fake_cuda:
        model = ip.user_ns["Model"]()
        fake_cuda.to(model.layers[0], "cuda:0")
        fake_cuda.to(model.layers[1], "cuda:1")
        for layer in model.layers:
            layer.register_forward_pre_hook(ip.user_ns["align"])
        ip.user_ns.update(model=model, layer=model.layers[1],
                          h=fake_cuda.randn(1, 1, 4, device="cuda:0"))
    capsys.readouterr()
    with fake_cuda:
        err = ip.run_cell("with torch.no_grad():\n    out = model(h)\n",
                          store_history=False).error_in_exec
    assert err is not None
    out = ANSI.sub("", capsys.readouterr().out)
    text = out[out.index("devicelens: "):]
    assert "culprit: model.layers[1].attn.key_states (float32[1, 2, 4] on cuda:0); expected " \
           "cuda:1" in text
    assert "model.layers[0]" not in text
    assert "+ k_out = torch.cat([self.key_states.to(k.device), k], dim=1)" in text
    assert "+ v_out = torch.cat([self.value_states.to(v.device), v], dim=1)" in text
    assert 'layer.to("cuda:0")' not in text and VERIFIED in text


def test_the_other_side_never_moves_one_part_of_a_split_model(fake_cuda):
    """The last resort, the model moved to where the data is, is refused for a module that is
    one stage of a namespace model split over GPUs: ``layer.to("cuda:0")`` makes the cell run
    by undoing the user's device map. A module that is no part of a split model is moved."""
    from torch import nn

    from devicelens.guard.diagnosis._blame import Named, Operand
    from devicelens.guard.diagnosis._mismatch import MismatchReport
    from devicelens.guard.rehearsal._other_side import other_side

    with fake_cuda:
        model = nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 4))
        fake_cuda.to(model[0], "cuda:0")
        fake_cuda.to(model[1], "cuda:1")
    stray = Operand("argument 1", Named("cache", "cache", "local", ""), "cuda:0", "float32",
                    (2, 4))
    report = MismatchReport("device", "cat", "cuda:1", (stray,), (stray,),
                            module="layer (Linear)")
    assert other_side(report, None, {"model": model, "layer": model[1]}) is None
    fix, culprit = other_side(report, None, {"layer": model[1]})  # type: ignore[misc]
    assert fix == 'layer.to("cuda:0")' and culprit.named.name == "layer"
