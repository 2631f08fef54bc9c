"""tuned-lens notebook on GPU: `TunedLens.load(..., map_location=device)` builds the lens on the CPU, so `lens.forward(h, i)` mixes devices.

Source: https://github.com/AlignmentResearch/tuned-lens/issues/53
"Problems running the notebook on GPU": with `device = "cuda"` the interactive notebook failed inside
`decode_tl` -> `lens.forward(h, i)` -> `transform_hidden`. `TunedLens.load` passes `map_location` only to
`th.load` of the checkpoint; the lens itself is built with `cls(**config)` on the CPU and
`load_state_dict` copies the cuda checkpoint into those CPU parameters. The fix (PR #54) adds
`tuned_lens = tuned_lens.to(device)` after loading.
Stand-ins: a tiny GPT-2-like model returning `hidden_states`, `load_lens_artifacts`/`th.load` reduced to a
state dict made on `map_location`, and TunedLens reduced to its translators, layer norm and unembedding.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch as th
import torch
from copy import deepcopy

class Output:
    def __init__(self, logits, hidden_states):
        self.logits = logits
        self.hidden_states = hidden_states

class TinyGPT2(th.nn.Module):
    """AutoModelForCausalLM.from_pretrained('gpt2-large'), reduced."""
    def __init__(self, vocab_size=50, d_model=16, n_layers=4):
        super().__init__()
        self.wte = th.nn.Embedding(vocab_size, d_model)
        self.h = th.nn.ModuleList([th.nn.Linear(d_model, d_model) for _ in range(n_layers)])
        self.ln_f = th.nn.LayerNorm(d_model)
        self.lm_head = th.nn.Linear(d_model, vocab_size, bias=False)
    def forward(self, input_ids, output_hidden_states=False):
        h = self.wte(input_ids)
        hidden_states = [h]
        for block in self.h:
            h = h + th.tanh(block(h))
            hidden_states.append(h)
        return Output(self.lm_head(self.ln_f(h)), tuple(hidden_states))

def th_load(ckpt_path, map_location=None):
    """th.load of the lens checkpoint, reduced: the saved tensors land on map_location."""
    d_model, vocab_size, n_layers = 16, 50, 4
    state = {"layer_norm.weight": th.ones(d_model), "layer_norm.bias": th.zeros(d_model),
             "unembedding.weight": th.randn(vocab_size, d_model)}
    for i in range(n_layers):
        state[f"layer_translators.{i}.weight"] = th.zeros(d_model, d_model)
        state[f"layer_translators.{i}.bias"] = th.zeros(d_model)
    state["input_translator.weight"] = th.zeros(d_model, d_model)
    state["input_translator.bias"] = th.zeros(d_model)
    return {k: v.to(map_location) for k, v in state.items()}

class TunedLens(th.nn.Module):
    """tuned_lens.nn.lenses.TunedLens (0.0.3), reduced."""
    def __init__(self, *, d_model=16, num_layers=5, vocab_size=50, bias=True):
        super().__init__()
        self.layer_norm = th.nn.LayerNorm(d_model)
        self.unembedding = th.nn.Linear(d_model, vocab_size, bias=False)
        translator = th.nn.Linear(d_model, d_model, bias=bias)
        translator.weight.data.zero_()
        translator.bias.data.zero_()
        self.add_module("input_translator", translator)
        num_layers -= 1
        self.layer_translators = th.nn.ModuleList([deepcopy(translator) for _ in range(num_layers)])

    def __getitem__(self, item):
        if item == 0:
            return self.input_translator
        return self.layer_translators[item - 1]

    @classmethod
    def load(cls, resource_id, **kwargs):
        config = {"d_model": 16, "num_layers": 5, "vocab_size": 50}
        state = th_load(resource_id + "/params.pt", **kwargs)
        lens = cls(**config)
        lens.load_state_dict(state)
        return lens

    def transform_hidden(self, h, idx):
        return h + self[idx](h)

    def to_logits(self, h):
        return self.unembedding(self.layer_norm(h))

    def forward(self, h, idx):
        h = self.transform_hidden(h, idx)
        return self.to_logits(h)

device = torch.device("cuda:0")
model = TinyGPT2()
model = model.to(device)
tuned_lens = TunedLens.load("gpt2-large", map_location=device)
input_ids = th.randint(0, 50, (1, 7))
'''
CELL = '''
outputs = model(input_ids.to(device), output_hidden_states=True)
hidden_states = outputs.hidden_states[:-1]
stream = [tuned_lens.forward(h, i) for i, h in enumerate(hidden_states)]
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["tuned_lens"]
FIX = "namespace"
REFERENCE_FIX = '''
tuned_lens = tuned_lens.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
