"""Look-alike: pyvene `RotatedSpaceIntervention` keeps its orthogonal rotation in float32 on a bfloat16 model; `RotateLayer` casts the input and the output is cast back to `base.dtype`.

Source: https://github.com/stanfordnlp/pyvene/blob/9e333904dcf9e597ca76170010d17f4d4580de8d/pyvene/models/interventions.py
`RotateLayer.forward` is `torch.matmul(x.to(self.weight.dtype), self.weight)` (pyvene/models/layers.py) and
`RotatedSpaceIntervention.forward` ends with `output.to(base.dtype)`: the rotation is parametrized with
`torch.nn.utils.parametrizations.orthogonal`, which wants float32, while the intervened LM runs in
bfloat16 (pyvene PR #9 moved the bf16 handling into the rotation layer this way). Mixed dtypes on purpose,
every crossing cast; it runs.
Stand-ins: a tiny bf16 GPT-2-like model and IntervenableModel reduced to one forward hook doing a
base/source interchange at the given positions (`_do_intervention_by_swap` reduced to a slice swap).
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class RotateLayer(torch.nn.Module):
    """A linear transformation with orthogonal initialization."""
    def __init__(self, n, init_orth=True):
        super().__init__()
        weight = torch.empty(n, n)
        if init_orth:
            torch.nn.init.orthogonal_(weight)
        self.weight = torch.nn.Parameter(weight, requires_grad=True)
    def forward(self, x):
        return torch.matmul(x.to(self.weight.dtype), self.weight)

class RotatedSpaceIntervention(nn.Module):
    """pyvene RotatedSpaceIntervention, reduced."""
    def __init__(self, embed_dim, interchange_dim):
        super().__init__()
        self.embed_dim = embed_dim
        self.interchange_dim = interchange_dim
        rotate_layer = RotateLayer(embed_dim)
        self.rotate_layer = torch.nn.utils.parametrizations.orthogonal(rotate_layer)
    def forward(self, base, source, subspaces=None, **kwargs):
        rotated_base = self.rotate_layer(base)
        rotated_source = self.rotate_layer(source)
        # interchange
        rotated_base = torch.cat(
            [rotated_source[..., :self.interchange_dim], rotated_base[..., self.interchange_dim:]], dim=-1)
        # inverse base
        output = torch.matmul(rotated_base, self.rotate_layer.weight.T)
        return output.to(base.dtype)

class TinyGPT2(nn.Module):
    def __init__(self, vocab_size=100, d_model=32, n_layer=4):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, d_model)
        self.h = nn.ModuleList([nn.Linear(d_model, d_model) for _ in range(n_layer)])
        self.lm_head = nn.Linear(d_model, vocab_size, bias=False)
    def forward(self, input_ids):
        x = self.wte(input_ids)
        for block in self.h:
            x = x + torch.tanh(block(x))
        return self.lm_head(x)

class IntervenableModel(nn.Module):
    """pyvene.IntervenableModel, reduced to one block_output interchange."""
    def __init__(self, model, layer, intervention):
        super().__init__()
        self.model = model
        self.layer = layer
        self.intervention = intervention
    def forward(self, base, sources, unit_locations):
        cache = {}
        def collect(module, inputs, output):
            cache["source"] = output
        h = self.model.h[self.layer].register_forward_hook(collect)
        self.model(**sources[0])
        h.remove()
        src_pos, base_pos = unit_locations["sources->base"]
        def swap(module, inputs, output):
            output = output.clone()
            output[:, base_pos] = self.intervention(output[:, base_pos], cache["source"][:, src_pos])
            return output
        h = self.model.h[self.layer].register_forward_hook(swap)
        try:
            return self.model(**base), None
        finally:
            h.remove()

gpt2 = TinyGPT2().to(torch.bfloat16)
intervention = RotatedSpaceIntervention(embed_dim=32, interchange_dim=8)
pv_gpt2 = IntervenableModel(gpt2, layer=2, intervention=intervention)
base = {"input_ids": torch.randint(0, 100, (2, 6))}
source = {"input_ids": torch.randint(0, 100, (2, 6))}
'''
CELL = '''
intervened_outputs, _ = pv_gpt2(base, [source], {"sources->base": ([3, 4], [3, 4])})
loss = intervened_outputs[:, -1].float().logsumexp(-1).mean()
loss.backward()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
