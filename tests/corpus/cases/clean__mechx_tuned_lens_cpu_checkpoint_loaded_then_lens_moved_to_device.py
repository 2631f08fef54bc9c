"""Look-alike: tuned-lens `TunedLens.from_model_and_pretrained(model, map_location="cpu")` loads CPU translators, then `tuned_lens.to(device)` before decoding GPU hidden states.

Source: https://github.com/AlignmentResearch/tuned-lens/blob/abdac0c4de23d9f6d6c8459d576ad203aec15deb/tuned_lens/nn/lenses.py
`from_unembed_and_pretrained` builds the lens with `cls(unembed, config)` (translators created on the CPU
with the unembedding's dtype), loads the checkpoint with `th.load(ckpt_path, **th_load_kwargs)` and
`lens.layer_translators.load_state_dict(state)`; the README then moves the lens with
`tuned_lens = tuned_lens.to(device)`. A CPU checkpoint copied into CPU parameters, the whole lens (its
`Unembed`, which holds the model's own final norm and unembedding, included) moved afterwards: every
crossing is explicit, it runs.
Stand-ins: a tiny causal LM returning `hidden_states`, `Unembed` reduced to final norm + unembedding, and
`th.load` reduced to a CPU state dict.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from copy import deepcopy
import torch as th
import torch

class Output:
    def __init__(self, logits, hidden_states):
        self.logits = logits
        self.hidden_states = hidden_states

class TinyCausalLM(th.nn.Module):
    def __init__(self, vocab_size=50, d_model=16, n_layers=4):
        super().__init__()
        self.embed = th.nn.Embedding(vocab_size, d_model)
        self.layers = th.nn.ModuleList([th.nn.Linear(d_model, d_model) for _ in range(n_layers)])
        self.norm = th.nn.LayerNorm(d_model)
        self.lm_head = th.nn.Linear(d_model, vocab_size, bias=False)
    def get_output_embeddings(self):
        return self.lm_head
    def forward(self, input_ids, output_hidden_states=False):
        h = self.embed(input_ids)
        hs = [h]
        for layer in self.layers:
            h = h + th.tanh(layer(h))
            hs.append(h)
        return Output(self.lm_head(self.norm(h)), tuple(hs))

class Unembed(th.nn.Module):
    """tuned_lens.nn.unembed.Unembed, reduced: the model's final norm and unembedding."""
    def __init__(self, model):
        super().__init__()
        self.final_norm = model.norm
        self.unembedding = model.get_output_embeddings()
    def forward(self, h):
        return self.unembedding(self.final_norm(h))

def th_load(ckpt_path, map_location=None):
    """th.load of params.pt, reduced: the translators' state dict on map_location."""
    state = {}
    for i in range(4):
        state[f"{i}.weight"] = th.zeros(16, 16)
        state[f"{i}.bias"] = th.zeros(16)
    return {k: v.to(map_location) for k, v in state.items()}

class TunedLens(th.nn.Module):
    """tuned_lens.nn.lenses.TunedLens, reduced."""
    def __init__(self, unembed, num_hidden_layers, d_model):
        super().__init__()
        self.unembed = unembed
        w = unembed.unembedding.weight
        dtype = w.dtype if th.is_floating_point(w) else th.float16
        translator = th.nn.Linear(d_model, d_model, bias=True, dtype=dtype)
        translator.weight.data.zero_()
        translator.bias.data.zero_()
        self.layer_translators = th.nn.ModuleList([deepcopy(translator) for _ in range(num_hidden_layers)])

    def __getitem__(self, item):
        return self.layer_translators[item]

    @classmethod
    def from_model_and_pretrained(cls, model, lens_resource_id=None, **kwargs):
        lens = cls(Unembed(model), num_hidden_layers=4, d_model=16)
        state = th_load("params.pt", **kwargs)
        lens.layer_translators.load_state_dict(state)
        return lens

    def transform_hidden(self, h, idx):
        return h + self[idx](h)

    def forward(self, h, idx):
        h = self.transform_hidden(h, idx)
        return self.unembed.forward(h)

device = th.device("cuda:0")
model = TinyCausalLM().to(device)
tuned_lens = TunedLens.from_model_and_pretrained(model, map_location="cpu")
tuned_lens = tuned_lens.to(device)
input_ids = th.randint(0, 50, (1, 7))
'''
CELL = '''
outputs = model(input_ids.to(device), output_hidden_states=True)
hidden_states = outputs.hidden_states[:-1]
stream = [tuned_lens.forward(h, i).log_softmax(-1) for i, h in enumerate(hidden_states)]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
