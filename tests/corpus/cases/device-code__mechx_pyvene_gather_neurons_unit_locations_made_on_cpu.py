"""pyvene `gather_neurons` builds the position index with `torch.tensor(unit_locations_as_list, device="cpu")`: gathering a cuda activation fails.

Source: https://github.com/stanfordnlp/pyvene/pull/171
"device of unit_locations should follow tensor_input": in `pyvene/models/modeling_utils.py`, the
single-unit ("pos") branch of `gather_neurons` made `unit_locations` with a hard-coded `device="cpu"` and
passed it as the index of `torch.gather(tensor_input, 1, ...)`. With the intervened model on a GPU the
gather mixes cuda activations and a CPU index. The merged fix creates the index on
`tensor_input.device if device is None else device`.
Stand-ins: a tiny GPT-2-like model and IntervenableModel reduced to one forward hook that gathers the
intervened positions with `gather_neurons` and adds a learned vector there (`gather_neurons` kept as is).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

def gather_neurons(tensor_input, unit, unit_locations_as_list, device=None):
    """pyvene.models.modeling_utils.gather_neurons, single-unit branch."""
    if unit in {"t"}:
        return tensor_input
    unit_locations = torch.tensor(
        unit_locations_as_list, device="cpu"
    )
    tensor_output = torch.gather(
        tensor_input,
        1,
        unit_locations.reshape(
            *unit_locations.shape, *(1,) * (len(tensor_input.shape) - 2)
        ).expand(-1, -1, *tensor_input.shape[2:]),
    )
    return tensor_output

class TinyGPT2(nn.Module):
    """GPT2Model, reduced."""
    def __init__(self, vocab_size=100, d_model=32, n_layer=4):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, d_model)
        self.h = nn.ModuleList([nn.Linear(d_model, d_model) for _ in range(n_layer)])
    def forward(self, input_ids):
        x = self.wte(input_ids)
        for block in self.h:
            x = x + torch.tanh(block(x))
        return x

class AdditionIntervention(nn.Module):
    """pyvene AdditionIntervention with a trainable direction, reduced."""
    def __init__(self, embed_dim):
        super().__init__()
        self.source = nn.Parameter(torch.zeros(embed_dim))
    def forward(self, base):
        return base + self.source

class IntervenableModel(nn.Module):
    """pyvene.IntervenableModel, reduced to one block_output intervention."""
    def __init__(self, config, model):
        super().__init__()
        self.model = model
        self.layer = config["layer"]
        self.intervention = AdditionIntervention(config["embed_dim"])
    def forward(self, base, unit_locations):
        positions = unit_locations["base"]
        def hook(module, inputs, output):
            selected = gather_neurons(output, "pos", positions)
            intervened = self.intervention(selected)
            index = torch.tensor(positions, device=output.device)
            return output.scatter(1, index[..., None].expand_as(intervened), intervened)
        handle = self.model.h[self.layer].register_forward_hook(hook)
        try:
            return None, self.model(**base)
        finally:
            handle.remove()

device = "cuda:0"
gpt2 = TinyGPT2().to(device)
pv_gpt2 = IntervenableModel({"layer": 1, "component": "block_output", "embed_dim": 32}, model=gpt2)
pv_gpt2.to(device)
base_ids = torch.randint(0, 100, (2, 8), device=device)
'''
CELL = '''
_, counterfactual_outputs = pv_gpt2(
    {"input_ids": base_ids},
    unit_locations={"base": [[3, 4], [5, 6]]},
)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["gather_neurons"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    'unit_locations_as_list, device="cpu"',
    'unit_locations_as_list, device=tensor_input.device if device is None else device',
)
CLEAN = False
