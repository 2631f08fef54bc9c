"""Look-alike: AutoAWQ's multi-GPU fix quantizes layer by layer on alternating GPUs, moving the cached inputs and kwargs to each layer's device.

Source: https://github.com/casper-hansen/AutoAWQ/pull/668
"multi-gpu fix" (closing several "Expected all tensors to be on the same device" reports): in
`AwqQuantizer.quantize` every decoder layer that is still on the CPU is put on
`cuda:{i % torch.cuda.device_count()}`, and before running it the quantizer moves `self.inps`,
`position_ids`, `attention_mask` and the rotary `position_embeddings` in `module_kwargs` to that
layer's device (`common_device`). Layers end up on two GPUs on purpose and each op sees one.
Stand-in: a 4-layer Llama-shaped stack with precomputed inputs/kwargs (as `init_quant` captures
them), the per-layer loop with the real device handling; the scale search is replaced by one
forward per layer.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class LlamaDecoderLayer(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.input_layernorm = nn.LayerNorm(hidden)
        self.q_proj = nn.Linear(hidden, hidden, bias=False)
        self.mlp = nn.Linear(hidden, hidden, bias=False)

    def forward(self, hidden_states, attention_mask=None, position_ids=None, position_embeddings=None):
        cos, sin = position_embeddings
        h = self.q_proj(self.input_layernorm(hidden_states))
        h = (h * cos + h * sin) + attention_mask[..., None]
        return (hidden_states + self.mlp(h),)

class AwqQuantizer:
    def __init__(self, modules, inps, module_kwargs, n_gpus=2):
        self.modules, self.inps, self.module_kwargs, self.n_gpus = modules, inps, module_kwargs, n_gpus

    def quantize(self):
        for i in range(len(self.modules)):
            # Move module and inputs to correct device
            common_device = next(self.modules[i].parameters()).device
            if common_device is None or str(common_device) == "cpu":
                best_device = "cuda:" + str(i % self.n_gpus)
                self.modules[i] = self.modules[i].to(best_device)
                common_device = next(self.modules[i].parameters()).device
            if self.module_kwargs.get("position_ids") is not None:
                self.module_kwargs["position_ids"] = self.module_kwargs["position_ids"].to(common_device)
            if self.module_kwargs.get("attention_mask") is not None:
                self.module_kwargs["attention_mask"] = self.module_kwargs["attention_mask"].to(common_device)
            if self.module_kwargs.get("position_embeddings") is not None:
                self.module_kwargs["position_embeddings"] = tuple(
                    t.to(common_device) for t in self.module_kwargs["position_embeddings"])
            self.inps = self.inps.to(common_device)
            with torch.no_grad():
                self.inps = self.modules[i](self.inps, **self.module_kwargs)[0]   # search/apply scales, clip

layers = nn.ModuleList([LlamaDecoderLayer() for _ in range(4)])
inps = torch.randn(2, 8, 16).to("cuda:0")                      # captured by init_quant on the first GPU
module_kwargs = {
    "attention_mask": torch.zeros(2, 8).to("cuda:0"),
    "position_ids": torch.arange(8).unsqueeze(0).to("cuda:0"),
    "position_embeddings": (torch.randn(1, 8, 16).to("cuda:0"), torch.randn(1, 8, 16).to("cuda:0")),
}
quantizer = AwqQuantizer(layers, inps, module_kwargs)
'''
CELL = '''
quantizer.quantize()
print([str(next(m.parameters()).device) for m in quantizer.modules])
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
