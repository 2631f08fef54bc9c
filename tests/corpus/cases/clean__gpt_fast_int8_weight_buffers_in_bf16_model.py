"""gpt-fast int8 weight-only model: int8 weight buffers stay int8 through `model.to(dtype=torch.bfloat16)`, forward casts them.

Source: https://github.com/meta-pytorch/gpt-fast/issues/114
The issue's snippet is gpt-fast's `WeightOnlyInt8Linear`: `weight` is an int8 buffer, `scales` a
bf16 buffer, and `forward` does `F.linear(input, self.weight.to(dtype=input.dtype)) * self.scales`;
the layer is then moved with `.to(device='cuda', dtype=torch.bfloat16)`, which casts floating
tensors only, so the int8 weights stay int8 on purpose and the bf16 input runs. generate.py does
the same for the whole model (convert_for_runtime, load_state_dict(assign=True), `.to(device,
dtype)`), RMSNorm normalizes in float32 and casts back, and the prompt ids are int32. Stand-in: gpt-fast's model.py reduced
(no KV cache, one block, toy sizes) and quantize.py's per-channel int8 handler; no torch.compile.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def _norm(self, x):
        return x * torch.rsqrt(torch.mean(x * x, dim=-1, keepdim=True) + self.eps)

    def forward(self, x):
        output = self._norm(x.float()).type_as(x)
        return output * self.weight

class FeedForward(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden, bias=False)
        self.w3 = nn.Linear(dim, hidden, bias=False)
        self.w2 = nn.Linear(hidden, dim, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))

class TransformerBlock(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.feed_forward = FeedForward(dim, hidden)
        self.ffn_norm = RMSNorm(dim)

    def forward(self, x):
        return x + self.feed_forward(self.ffn_norm(x))

class Transformer(nn.Module):
    def __init__(self, vocab_size=64, dim=32, hidden=64, n_layer=1):
        super().__init__()
        self.tok_embeddings = nn.Embedding(vocab_size, dim)
        self.layers = nn.ModuleList(TransformerBlock(dim, hidden) for _ in range(n_layer))
        self.norm = RMSNorm(dim)
        self.output = nn.Linear(dim, vocab_size, bias=False)

    def forward(self, idx):
        x = self.tok_embeddings(idx)
        for layer in self.layers:
            x = layer(x)
        return self.output(self.norm(x))

def dynamically_quantize_per_channel(x, quant_min, quant_max, target_dtype):
    eps = torch.finfo(torch.float32).eps
    min_val, max_val = torch.aminmax(x, dim=1)
    min_val_neg = torch.min(min_val, torch.zeros_like(min_val))
    max_val_pos = torch.max(max_val, torch.zeros_like(max_val))
    max_val_pos = torch.max(-min_val_neg, max_val_pos)
    scales = max_val_pos / (float(quant_max - quant_min) / 2)
    scales = torch.clamp(scales, min=eps).to(x.dtype)
    x_div = x / scales.unsqueeze(-1)
    x_round = torch.round(x_div)
    quant = torch.clamp(x_round, quant_min, quant_max).to(target_dtype)
    return quant, scales, torch.zeros_like(scales)

class WeightOnlyInt8Linear(nn.Module):
    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        self.register_buffer("weight", torch.empty((out_features, in_features), dtype=torch.int8))
        self.register_buffer("scales", torch.ones(out_features, dtype=torch.bfloat16))

    def forward(self, input):
        return F.linear(input, self.weight.to(dtype=input.dtype)) * self.scales

def replace_linear_weight_only_int8_per_channel(module):
    for name, child in module.named_children():
        if isinstance(child, nn.Linear):
            setattr(module, name, WeightOnlyInt8Linear(child.in_features, child.out_features))
        else:
            replace_linear_weight_only_int8_per_channel(child)

class WeightOnlyInt8QuantHandler:
    def __init__(self, mod):
        self.mod = mod

    @torch.no_grad()
    def create_quantized_state_dict(self):
        cur_state_dict = self.mod.state_dict()
        for fqn, mod in self.mod.named_modules():
            if isinstance(mod, nn.Linear):
                int8_weight, scales, _ = dynamically_quantize_per_channel(mod.weight.float(), -128, 127, torch.int8)
                cur_state_dict[f"{fqn}.weight"] = int8_weight
                cur_state_dict[f"{fqn}.scales"] = scales.to(mod.weight.dtype)
        return cur_state_dict

    def convert_for_runtime(self):
        replace_linear_weight_only_int8_per_channel(self.mod)
        return self.mod

# quantize.py --mode int8: writes model_int8.pth
checkpoint = WeightOnlyInt8QuantHandler(Transformer()).create_quantized_state_dict()

# generate.py _load_model("model_int8.pth", device, precision)
device, precision = "cuda:0", torch.bfloat16
model = Transformer()
model = WeightOnlyInt8QuantHandler(model).convert_for_runtime()
model.load_state_dict(checkpoint, assign=True)
model = model.to(device=device, dtype=precision)
model = model.eval()

encoded = torch.tensor([1, 15, 22, 7, 3], dtype=torch.int, device=device)   # tokenizer.encode
'''
CELL = '''
with torch.no_grad():
    logits = model(encoded.view(1, -1))
    next_token = torch.argmax(logits.select(1, -1), dim=-1, keepdim=True)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
