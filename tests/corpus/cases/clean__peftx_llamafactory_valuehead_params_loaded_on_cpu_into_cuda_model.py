"""Look-alike: LLaMA-Factory loads the value-head weights on the CPU and copies them into the GPU reward model.

Source: https://github.com/hiyouga/LLaMA-Factory/blob/main/src/llamafactory/model/model_utils/valuehead.py
`load_valuehead_params` opens `value_head.safetensors` with `safe_open(vhead_file, framework="pt",
device="cpu")` (or `torch.load(vhead_file, map_location="cpu")`) and returns a dict of CPU tensors;
`load_model` (src/llamafactory/model/loader.py) then calls
`model.load_state_dict(vhead_params, strict=False)` on the `AutoModelForCausalLMWithValueHead` that
already sits on the GPU, which copies the values into the existing CUDA parameters. The dict of CPU
tensors stays in the namespace next to a CUDA model, by design; nothing to report.
Stand-ins: a tiny LoRA causal LM on cuda:0, trl's `ValueHead`/`AutoModelForCausalLMWithValueHead`
and the loader's value-head step (the safetensors file is replaced by CPU tensors). Simulated with
SIM = "meta": the meta device plays the GPU (a fake CUDA tensor cannot be copied into).
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class LoraLinear(nn.Module):
    def __init__(self, base_layer, r=8, lora_alpha=16):
        super().__init__()
        self.base_layer = base_layer
        self.lora_A = nn.Linear(base_layer.in_features, r, bias=False)
        self.lora_B = nn.Linear(r, base_layer.out_features, bias=False)
        self.scaling = lora_alpha / r

    def forward(self, x):
        return self.base_layer(x) + self.lora_B(self.lora_A(x)) * self.scaling

class TinyCausalLM(nn.Module):
    def __init__(self, vocab=100, d=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.q_proj = LoraLinear(nn.Linear(d, d))
        self.lm_head = nn.Linear(d, vocab, bias=False)
        self.hidden_size = d

    def forward(self, input_ids):
        h = torch.tanh(self.q_proj(self.embed_tokens(input_ids)))
        return self.lm_head(h), h

class ValueHead(nn.Module):
    def __init__(self, hidden_size):
        super().__init__()
        self.dropout = nn.Identity()
        self.summary = nn.Linear(hidden_size, 1)

    def forward(self, hidden_states):
        output = self.dropout(hidden_states)
        if output.dtype != self.summary.weight.dtype:
            output = output.to(self.summary.weight.dtype)
        return self.summary(output)

class AutoModelForCausalLMWithValueHead(nn.Module):
    def __init__(self, pretrained_model):
        super().__init__()
        self.pretrained_model = pretrained_model
        self.v_head = ValueHead(pretrained_model.hidden_size)

    def forward(self, input_ids):
        lm_logits, last_hidden_state = self.pretrained_model(input_ids)
        return lm_logits, None, self.v_head(last_hidden_state).squeeze(-1)

def load_valuehead_params(path_or_repo_id, model_args=None):
    """llamafactory.model.model_utils.valuehead.load_valuehead_params: tensors come back on the CPU
    (safe_open(vhead_file, framework="pt", device="cpu"))."""
    return {"v_head.summary.weight": torch.randn(1, 32) * 0.02, "v_head.summary.bias": torch.zeros(1)}

model = AutoModelForCausalLMWithValueHead(TinyCausalLM())     # add_valuehead=True, finetuning_type=lora
model.to("meta")                                              # device_map={"": 0} (meta plays the GPU)
vhead_path = "saves/qwen-rm/lora"
vhead_params = load_valuehead_params(vhead_path)
input_ids = torch.randint(0, 100, (2, 12)).to("meta")
'''
CELL = '''
if vhead_params is not None:
    model.load_state_dict(vhead_params, strict=False)
with torch.no_grad():
    _, _, values = model(input_ids)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
