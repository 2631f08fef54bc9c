"""CodeGen loaded with device_map="auto" in fp16: the boolean causal-mask buffers were cast to Half.

Source: https://github.com/huggingface/transformers/issues/20397
`CodeGenForCausalLM.from_pretrained(..., device_map="auto")` (fp16 weights) then generation raised
"where expected condition to be a boolean tensor, but got a tensor with dtype Half" in the attention's
`torch.where(causal_mask, attn_weights, mask_value)`. The dispatch path cast every tensor of the
checkpoint, buffers included, to the load dtype, so each layer's `causal_mask` buffer became fp16
(transformers PR #18467: "casts also the buffers in fp16"). Stand-in: a 2-layer CodeGen and a loader
that casts every parameter and buffer the way that dispatch did. Run on the CPU (a dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import torch
from torch import nn

class CodeGenAttention(nn.Module):
    def __init__(self, dim=32, n_head=4, max_positions=16):
        super().__init__()
        self.n_head = n_head
        self.register_buffer("causal_mask", torch.tril(
            torch.ones((max_positions, max_positions), dtype=torch.bool)).view(1, 1, max_positions, max_positions))
        self.register_buffer("masked_bias", torch.tensor(-1e4))
        self.qkv_proj = nn.Linear(dim, 3 * dim, bias=False)
        self.out_proj = nn.Linear(dim, dim, bias=False)

    def forward(self, hidden_states):
        b, t, c = hidden_states.shape
        q, k, v = self.qkv_proj(hidden_states).split(c, dim=-1)
        q, k, v = (z.view(b, t, self.n_head, -1).transpose(1, 2) for z in (q, k, v))
        attn_weights = q @ k.transpose(-1, -2) / (c // self.n_head) ** 0.5
        causal_mask = self.causal_mask[:, :, :t, :t]
        attn_weights = torch.where(causal_mask, attn_weights, self.masked_bias.to(attn_weights.dtype))
        out = attn_weights.softmax(dim=-1) @ v
        return self.out_proj(out.transpose(1, 2).reshape(b, t, c))

class CodeGenBlock(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.ln_1 = nn.LayerNorm(dim)
        self.attn = CodeGenAttention(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        h = self.ln_1(x)
        return x + self.attn(h) + self.mlp(h)

class CodeGenModel(nn.Module):
    def __init__(self, vocab=64, dim=32, n_layer=2):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.h = nn.ModuleList([CodeGenBlock(dim) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(dim)

    def forward(self, input_ids):
        x = self.wte(input_ids)
        for block in self.h:
            x = block(x)
        return self.ln_f(x)

class CodeGenForCausalLM(nn.Module):
    def __init__(self, vocab=64, dim=32):
        super().__init__()
        self.transformer = CodeGenModel(vocab, dim)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, input_ids):
        return self.lm_head(self.transformer(input_ids))

def load_dispatched(model, torch_dtype):
    """Stand-in for the device_map="auto" load of that time: set_module_tensor_to_device(..., dtype)
    applied to every parameter and every buffer of the checkpoint."""
    for module in model.modules():
        for name, buf in list(module._buffers.items()):
            if buf is not None:
                module._buffers[name] = buf.to(torch_dtype)
        for name, param in list(module._parameters.items()):
            if param is not None:
                module._parameters[name] = nn.Parameter(param.data.to(torch_dtype), requires_grad=False)
    return model

model = load_dispatched(CodeGenForCausalLM(), torch.float16)
input_ids = torch.randint(0, 64, (1, 8))
'''
CELL = '''
with torch.no_grad():
    logits = model(input_ids)
next_token = logits[:, -1].argmax(-1)
'''
EXPECT_ERROR = "where expected condition to be a boolean tensor"
CULPRITS = ["model.transformer.h[0].attn.causal_mask", "model.transformer.h[1].attn.causal_mask"]
FIX = "namespace"
REFERENCE_FIX = '''
for block in model.transformer.h:
    block.attn.causal_mask = block.attn.causal_mask.bool()
'''
REFERENCE_EDIT = None
CLEAN = False
