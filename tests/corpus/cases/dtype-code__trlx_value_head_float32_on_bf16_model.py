"""trlx PPO with a bfloat16 base model: `make_head` builds the value head in the default float32.

Source: https://github.com/CarperAI/trlx/pull/213
"Make `make_head` accept dtype parameter: This PR forces value heads to be the same `dtype` as the
rest of the base model". `AutoModelForCausalLMWithValueHead` built
`self.v_head = make_head(hf_get_hidden_size(self.base_model.config), 1)` with plain `nn.Linear`s,
while the base model was loaded in half precision, so the value head received bfloat16 hidden states
("mat1 and mat2 must have the same dtype"). Stand-in: `make_head`, the value-head wrapper and a small
causal LM loaded in bfloat16; run on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn

def make_head(n_embd: int, out: int) -> nn.Sequential:
    """Returns a generic sequential MLP head."""
    return nn.Sequential(nn.Linear(n_embd, n_embd * 2), nn.ReLU(), nn.Linear(n_embd * 2, out))

class TinyCausalLM(nn.Module):
    def __init__(self, vocab=100, hidden_size=32):
        super().__init__()
        self.config = SimpleNamespace(hidden_size=hidden_size)
        self.embed = nn.Embedding(vocab, hidden_size)
        self.block = nn.Sequential(nn.LayerNorm(hidden_size), nn.Linear(hidden_size, hidden_size), nn.GELU())
        self.lm_head = nn.Linear(hidden_size, vocab, bias=False)

    def forward(self, input_ids, output_hidden_states=True):
        h = self.block(self.embed(input_ids))
        return SimpleNamespace(logits=self.lm_head(h), hidden_states=(h,))

def hf_get_hidden_size(config):
    return config.hidden_size

class AutoModelForCausalLMWithValueHead(nn.Module):
    def __init__(self, base_model):
        super().__init__()
        self.base_model = base_model
        self.v_head = make_head(hf_get_hidden_size(self.base_model.config), 1)

    def forward(self, input_ids):
        outputs = self.base_model(input_ids, output_hidden_states=True)
        value = self.v_head(outputs.hidden_states[-1]).squeeze(-1)
        return outputs.logits, value

base_model = TinyCausalLM().to(torch.bfloat16)      # from_pretrained(..., torch_dtype=torch.bfloat16)
model = AutoModelForCausalLMWithValueHead(base_model)
query_tensors = torch.randint(0, 100, (4, 12))
'''
CELL = '''
logits, values = model(query_tensors)
'''
EXPECT_ERROR = "mat1 and mat2 must have the same dtype"
CULPRITS = ["model.v_head"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "self.v_head = make_head(hf_get_hidden_size(self.base_model.config), 1)",
    "self.v_head = make_head(hf_get_hidden_size(self.base_model.config), 1).to(self.base_model.embed.weight.dtype)",
)
CLEAN = False
