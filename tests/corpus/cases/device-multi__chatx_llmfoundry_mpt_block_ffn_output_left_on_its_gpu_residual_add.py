"""llm-foundry MPTBlock adds the FFN output back to the residual stream without moving it: under `device_map="auto"` the block's `ffn` sits on the next GPU.

Source: https://github.com/mosaicml/llm-foundry/pull/1332
"Currently multi-gpu generate does not work with hf.generate for hf checkpoints": with
`device_map='auto'`, accelerate does pipeline parallelism and puts different modules on different
GPUs, "input tensors to certain operations being on different gpus than other inputs to that
operation". In `MPTBlock.forward`, `n = self.ffn(m)` comes back on the FFN's GPU (accelerate's hook
only moves the FFN's *inputs*), and `x = x + self.resid_ffn_dropout(n)` mixes it with `x` on the
attention's GPU. The merged fix: `x = x + self.resid_ffn_dropout(n).to(x.device)`.
Stand-ins: small attention/MLP modules and a forward pre-hook that does what accelerate's
AlignDevicesHook does for a submodule (inputs to the module's device, outputs left there).
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
import torch.nn as nn

def add_align_devices_hook(module, execution_device):
    """accelerate.hooks.AlignDevicesHook(io_same_device=False), reduced: move args in, leave outputs."""
    module.to(execution_device)
    def pre_hook(mod, args):
        return tuple(a.to(execution_device) if torch.is_tensor(a) else a for a in args)
    module.register_forward_pre_hook(pre_hook)

class MultiheadAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.Wqkv = nn.Linear(d_model, 3 * d_model)
        self.out_proj = nn.Linear(d_model, d_model)
    def forward(self, x, past_key_value=None, attn_bias=None, attention_mask=None, is_causal=True):
        q, k, v = self.Wqkv(x).chunk(3, dim=-1)
        w = torch.softmax(q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5, dim=-1)
        return self.out_proj(w @ v), None, past_key_value

class MPTMLP(nn.Module):
    def __init__(self, d_model, expansion_ratio):
        super().__init__()
        self.up_proj = nn.Linear(d_model, expansion_ratio * d_model)
        self.act = nn.GELU()
        self.down_proj = nn.Linear(expansion_ratio * d_model, d_model)
    def forward(self, x):
        return self.down_proj(self.act(self.up_proj(x)))

class MPTBlock(nn.Module):
    def __init__(self, d_model, n_heads, expansion_ratio, resid_pdrop=0.0):
        super().__init__()
        self.norm_1 = nn.LayerNorm(d_model)
        self.attn = MultiheadAttention(d_model, n_heads)
        self.norm_2 = nn.LayerNorm(d_model)
        self.ffn = MPTMLP(d_model, expansion_ratio)
        self.resid_attn_dropout = nn.Dropout(resid_pdrop)
        self.resid_ffn_dropout = nn.Dropout(resid_pdrop)

    def forward(self, x, past_key_value=None, attn_bias=None, attention_mask=None, is_causal=True):
        a = self.norm_1(x)
        b, attn_weights, past_key_value = self.attn(
            a, past_key_value=past_key_value, attn_bias=attn_bias,
            attention_mask=attention_mask, is_causal=is_causal)
        x = x + self.resid_attn_dropout(b)
        m = x
        if self.norm_2 is not None:
            m = self.norm_2(x)
        n = self.ffn(m)
        x = x + self.resid_ffn_dropout(n)
        return x, attn_weights, past_key_value

class MPTModel(nn.Module):
    def __init__(self, vocab_size=128, d_model=32, n_heads=4, n_layers=2, expansion_ratio=4):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, d_model)
        self.blocks = nn.ModuleList(
            [MPTBlock(d_model, n_heads, expansion_ratio) for _ in range(n_layers)])
        self.norm_f = nn.LayerNorm(d_model)

# device_map="auto" on two GPUs, reduced: the split falls inside blocks[1], between attn and ffn
device_map = {"wte": 0, "blocks.0": 0, "blocks.1.norm_1": 0, "blocks.1.attn": 0,
              "blocks.1.norm_2": 0, "blocks.1.ffn": 1, "norm_f": 1}
model = MPTModel()
for name, dev in device_map.items():
    add_align_devices_hook(model.get_submodule(name), torch.device("cuda", dev))
input_ids = torch.randint(0, 128, (1, 12), device="cuda:0")
'''
CELL = '''
x = model.wte(input_ids)
for block in model.blocks:
    x, _, _ = block(x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.blocks[1]"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        x = x + self.resid_ffn_dropout(n)\n",
    "        x = x + self.resid_ffn_dropout(n).to(x.device)\n",
)
CLEAN = False
