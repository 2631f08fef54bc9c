"""Look-alike: steering-vectors applies a CPU-held `SteeringVector` to a GPU model; the additive hook moves the vector and its token mask to the activation's device.

Source: https://github.com/steering-vectors/steering-vectors/blob/5459bd1287be642ec75a4ab000dc833262bcb7f4/steering_vectors/steering_vector.py
`_create_additive_hook` builds `hook_fn`, which does `target_act = target_activation.to(original_tensor.device)`,
makes `mask = torch.zeros(original_tensor.shape[1])` on the CPU, fills it from `token_indices`, then
`mask = mask.to(original_tensor.device)` before `original_tensor[None] = original_tensor + (mask * delta)`.
A steering vector kept on the CPU (trained elsewhere, saved, reloaded) and a model on cuda:0: both CPU
tensors are moved inside the hook, so nothing is wrong.
Stand-ins: a tiny decoder (`model.layers[i]` returning a tuple like HF decoder layers), `untuple_tensor`,
and `SteeringVector.apply` reduced to registering `_create_additive_hook` on the given layers (layer matching
and the `operator` argument dropped). SIM "meta": the model on the meta device stands for cuda:0, because
`original_tensor[None] = ...` cannot run on fake cuda tensors.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
from contextlib import contextmanager
from dataclasses import dataclass
import torch
from torch import Tensor, nn

def untuple_tensor(x):
    return x[0] if isinstance(x, tuple) else x

def _create_additive_hook(target_activation, token_indices, operator=None):
    """Create a hook function that adds the given target_activation to the model output"""
    def hook_fn(_m, _inputs, outputs):
        original_tensor = untuple_tensor(outputs)
        target_act = target_activation.to(original_tensor.device)
        delta = target_act
        if operator is not None:
            delta = operator(original_tensor, target_act)
        if isinstance(token_indices, Tensor):
            mask = token_indices
        else:
            mask = torch.zeros(original_tensor.shape[1])
            mask[token_indices] = 1
        mask = (
            mask.reshape(1, -1, 1)
            if len(mask.shape) == 1
            else mask.reshape(mask.shape[0], -1, 1)
        )
        mask = mask.to(original_tensor.device)
        original_tensor[None] = original_tensor + (mask * delta)
        return outputs
    return hook_fn

@dataclass
class SteeringVector:
    layer_activations: dict
    layer_type: str = "decoder_block"

    @contextmanager
    def apply(self, model, multiplier=1.0, min_token_index=0):
        token_indices = slice(min_token_index, None)
        hooks = []
        for layer_num in self.layer_activations:
            target_activation = multiplier * self.layer_activations[layer_num]
            hooks.append(model.layers[layer_num].register_forward_hook(
                _create_additive_hook(target_activation.reshape(1, 1, -1), token_indices)))
        try:
            yield
        finally:
            for h in hooks:
                h.remove()

class DecoderLayer(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.mlp = nn.Linear(d, d)
    def forward(self, x):
        return (x + torch.tanh(self.mlp(x)),)

class TinyLM(nn.Module):
    def __init__(self, vocab=100, d=32, n_layers=4):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList([DecoderLayer(d) for _ in range(n_layers)])
        self.lm_head = nn.Linear(d, vocab, bias=False)
    def forward(self, input_ids):
        h = self.embed_tokens(input_ids)
        for layer in self.layers:
            h = layer(h)[0]
        return self.lm_head(h)

model = TinyLM().to("meta")
steering_vector = SteeringVector({1: torch.randn(32), 2: torch.randn(32)})
input_ids = torch.randint(0, 100, (1, 9), device="meta")
'''
CELL = '''
with steering_vector.apply(model, multiplier=2.0, min_token_index=3):
    logits = model(input_ids)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
