"""TransformerLens `from_pretrained("gemma-2-2b", hf_model=...)` with a GPU HF model: the converted zero biases are made on the CPU.

Source: https://github.com/TransformerLensOrg/TransformerLens/issues/904
The user loaded Gemma-2-2b with `AutoModelForCausalLM.from_pretrained(..., device_map="cuda:0")` and passed it
as `hf_model=` to `HookedTransformer.from_pretrained(..., device=device)`; loading died in
`fold_value_biases` at `b_O_original + (b_V[:, :, None] * W_O).sum([0, 1])` with a cuda:0/cpu mismatch.
The report's diagnosis (its title): the state-dict conversion creates the Gemma bias tensors
(`torch.zeros(..., dtype=cfg.dtype)`, Gemma has no biases) on the CPU while the weights taken from the HF model
are on the GPU. The fix (now in `convert_gemma_weights`) creates each zero bias on its weight's device.
Stand-ins: a two-layer Gemma-shaped HF model (q/k/v/o projections only), `convert_gemma_weights` (einops
rearranges written as reshape/permute) and `HookedTransformer.from_pretrained` / `fold_value_biases`
(`b_V[:, :, None]` written `b_V.unsqueeze(-1)`).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn
from types import SimpleNamespace

class GemmaAttention(nn.Module):
    def __init__(self, d_model, n_heads, n_kv_heads, d_head):
        super().__init__()
        self.q_proj = nn.Linear(d_model, n_heads * d_head, bias=False)
        self.k_proj = nn.Linear(d_model, n_kv_heads * d_head, bias=False)
        self.v_proj = nn.Linear(d_model, n_kv_heads * d_head, bias=False)
        self.o_proj = nn.Linear(n_heads * d_head, d_model, bias=False)

class GemmaLayer(nn.Module):
    def __init__(self, *a):
        super().__init__()
        self.self_attn = GemmaAttention(*a)

class GemmaModel(nn.Module):
    def __init__(self, n_layers, *a):
        super().__init__()
        self.layers = nn.ModuleList([GemmaLayer(*a) for _ in range(n_layers)])

class GemmaForCausalLM(nn.Module):
    def __init__(self, n_layers=2, d_model=32, n_heads=4, n_kv_heads=2, d_head=8):
        super().__init__()
        self.model = GemmaModel(n_layers, d_model, n_heads, n_kv_heads, d_head)

def convert_gemma_weights(gemma, cfg):
    state_dict = {}
    for l in range(cfg.n_layers):
        attn = gemma.model.layers[l].self_attn
        W_Q = attn.q_proj.weight.reshape(cfg.n_heads, cfg.d_head, cfg.d_model).permute(0, 2, 1)
        W_K = attn.k_proj.weight.reshape(cfg.n_key_value_heads, cfg.d_head, cfg.d_model).permute(0, 2, 1)
        W_V = attn.v_proj.weight.reshape(cfg.n_key_value_heads, cfg.d_head, cfg.d_model).permute(0, 2, 1)
        state_dict[f"blocks.{l}.attn.W_Q"] = W_Q
        state_dict[f"blocks.{l}.attn._W_K"] = W_K
        state_dict[f"blocks.{l}.attn._W_V"] = W_V

        state_dict[f"blocks.{l}.attn.b_Q"] = torch.zeros(cfg.n_heads, cfg.d_head, dtype=cfg.dtype)
        state_dict[f"blocks.{l}.attn._b_K"] = torch.zeros(cfg.n_key_value_heads, cfg.d_head, dtype=cfg.dtype)
        state_dict[f"blocks.{l}.attn._b_V"] = torch.zeros(cfg.n_key_value_heads, cfg.d_head, dtype=cfg.dtype)

        W_O = attn.o_proj.weight.reshape(cfg.d_model, cfg.n_heads, cfg.d_head).permute(1, 2, 0)
        state_dict[f"blocks.{l}.attn.W_O"] = W_O
        state_dict[f"blocks.{l}.attn.b_O"] = torch.zeros(cfg.d_model, dtype=cfg.dtype)
    return state_dict

class HookedTransformer:
    def __init__(self, cfg):
        self.cfg = cfg

    @classmethod
    def from_pretrained(cls, model_name, hf_model=None, device=None, dtype=torch.float32):
        cfg = SimpleNamespace(model_name=model_name, n_layers=2, d_model=32, n_heads=4,
                              n_key_value_heads=2, d_head=8, dtype=dtype, device=device)
        state_dict = convert_gemma_weights(hf_model, cfg)
        model = cls(cfg)
        model.load_and_process_state_dict(state_dict)
        return model

    def load_and_process_state_dict(self, state_dict, fold_value_biases=True):
        if fold_value_biases:
            state_dict = self.fold_value_biases(state_dict)
        self.state_dict = state_dict

    def fold_value_biases(self, state_dict):
        for layer in range(self.cfg.n_layers):
            b_V = state_dict[f"blocks.{layer}.attn._b_V"]
            b_V = torch.repeat_interleave(b_V, dim=0, repeats=self.cfg.n_heads // self.cfg.n_key_value_heads)
            W_O = state_dict[f"blocks.{layer}.attn.W_O"]
            b_O_original = state_dict[f"blocks.{layer}.attn.b_O"]
            folded_b_O = b_O_original + (b_V.unsqueeze(-1) * W_O).sum([0, 1])
            state_dict[f"blocks.{layer}.attn.b_O"] = folded_b_O
            state_dict[f"blocks.{layer}.attn._b_V"] = torch.zeros_like(state_dict[f"blocks.{layer}.attn._b_V"])
        return state_dict

hf_model = GemmaForCausalLM().to("cuda:0")          # device_map="cuda:0"
device = torch.device("cuda:0")
'''
CELL = '''
model = HookedTransformer.from_pretrained("gemma-2-2b", hf_model=hf_model, device=device)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["convert_gemma_weights"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        state_dict[f"blocks.{l}.attn.b_Q"] = torch.zeros(cfg.n_heads, cfg.d_head, dtype=cfg.dtype)
        state_dict[f"blocks.{l}.attn._b_K"] = torch.zeros(cfg.n_key_value_heads, cfg.d_head, dtype=cfg.dtype)
        state_dict[f"blocks.{l}.attn._b_V"] = torch.zeros(cfg.n_key_value_heads, cfg.d_head, dtype=cfg.dtype)

        W_O = attn.o_proj.weight.reshape(cfg.d_model, cfg.n_heads, cfg.d_head).permute(1, 2, 0)
        state_dict[f"blocks.{l}.attn.W_O"] = W_O
        state_dict[f"blocks.{l}.attn.b_O"] = torch.zeros(cfg.d_model, dtype=cfg.dtype)
""", """        state_dict[f"blocks.{l}.attn.b_Q"] = torch.zeros(cfg.n_heads, cfg.d_head, dtype=cfg.dtype, device=W_Q.device)
        state_dict[f"blocks.{l}.attn._b_K"] = torch.zeros(cfg.n_key_value_heads, cfg.d_head, dtype=cfg.dtype, device=W_K.device)
        state_dict[f"blocks.{l}.attn._b_V"] = torch.zeros(cfg.n_key_value_heads, cfg.d_head, dtype=cfg.dtype, device=W_V.device)

        W_O = attn.o_proj.weight.reshape(cfg.d_model, cfg.n_heads, cfg.d_head).permute(1, 2, 0)
        state_dict[f"blocks.{l}.attn.W_O"] = W_O
        state_dict[f"blocks.{l}.attn.b_O"] = torch.zeros(cfg.d_model, dtype=cfg.dtype, device=W_O.device)
""")
CLEAN = False
