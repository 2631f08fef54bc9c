"""Yi-34B-Chat-4bits loaded with `device_map="auto"` over several GPUs and then `.cuda()`-ed: hooks still send activations to the other GPUs.

Source: https://github.com/01-ai/Yi/issues/242
Running `eval_quantized_model.py --model Yi-34B-Chat-4bits` on an 8-GPU machine failed in
`model.generate(**inputs, ...)` with "Expected all tensors to be on the same device, but found at
least two devices, cuda:0 and cuda:1!". The user printed the parameters (all on cuda:0) and the
inputs (cuda:0). The script loads the AWQ model with the default `device_map="auto"` (accelerate
dispatches the layers over the GPUs and registers hooks that move each layer's inputs to the
layer's assigned GPU) and then calls `.cuda()`, which moves every weight to GPU 0 but leaves the
hooks in place. The fix posted in the thread: drop `.cuda()` (or load with `device_map={"": 0}`).
Stand-ins: a small Llama-shaped model whose linear layers hold AWQ-style packed int32 `qweight`
and fp16 `scales` buffers, dispatched by a `dispatch_model` that registers accelerate-like
pre-hooks; `generate` is a greedy loop. `.to("cuda:0")` stands for `.cuda()` (the simulated devices
need an index).
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

class WQLinear_GEMM(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.register_buffer("qweight", torch.randint(0, 2**31 - 1, (in_features, out_features // 8), dtype=torch.int32))
        self.register_buffer("scales", torch.rand(1, out_features, dtype=torch.float16))
        self.register_buffer("w_deq", torch.randn(out_features, in_features, dtype=torch.float16))   # dequantized view

    def forward(self, x):
        return x @ self.w_deq.t() * self.scales

class YiDecoderLayer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.up_proj = WQLinear_GEMM(dim, 2 * dim)
        self.down_proj = WQLinear_GEMM(2 * dim, dim)

    def forward(self, h):
        return h + self.down_proj(torch.relu(self.up_proj(h)))

class YiModel(nn.Module):
    def __init__(self, vocab=100, dim=32, n_layer=4):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim).half()
        self.layers = nn.ModuleList(YiDecoderLayer(dim) for _ in range(n_layer))
        self.norm = nn.LayerNorm(dim).half()

    def forward(self, input_ids):
        h = self.embed_tokens(input_ids)
        for layer in self.layers:
            h = layer(h)
        return self.norm(h)

class YiForCausalLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = YiModel()
        self.lm_head = nn.Linear(32, 100, bias=False).half()

    def forward(self, input_ids, attention_mask=None):
        return self.lm_head(self.model(input_ids))

    @torch.no_grad()
    def generate(self, input_ids, attention_mask=None, do_sample=False, max_new_tokens=4):
        for _ in range(max_new_tokens):
            logits = self(input_ids)
            next_token = logits[:, -1:].float().argmax(-1).to(input_ids.device)
            input_ids = torch.cat([input_ids, next_token], dim=-1)
        return input_ids

def dispatch_model(model, device_map):
    # accelerate.dispatch_model: place each module, align its inputs with a pre-hook
    for name, dev in device_map.items():
        module = model.get_submodule(name).to(f"cuda:{dev}")
        target = torch.device(f"cuda:{dev}")
        module.register_forward_pre_hook(
            lambda mod, args, target=target: tuple(a.to(target) for a in args))
    model.hf_device_map = dict(device_map)
    return model

class AutoModelForCausalLM:
    @staticmethod
    def from_pretrained(path, device_map="auto", torch_dtype="auto", trust_remote_code=True):
        device_map = {"model.embed_tokens": 0, "model.layers.0": 0, "model.layers.1": 0,
                      "model.layers.2": 1, "model.layers.3": 1, "model.norm": 1, "lm_head": 1}
        return dispatch_model(YiForCausalLM(), device_map)

model = AutoModelForCausalLM.from_pretrained("Yi-34B-Chat-4bits", device_map="auto",
                                             torch_dtype="auto", trust_remote_code=True).to("cuda:0")
inputs = {"input_ids": torch.randint(0, 100, (1, 16)).to("cuda:0"),
          "attention_mask": torch.ones(1, 16, dtype=torch.long).to("cuda:0")}
'''
CELL = '''
output_ids = model.generate(
    **inputs,
    do_sample=False,
    max_new_tokens=4,
)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('''torch_dtype="auto", trust_remote_code=True).to("cuda:0")''', '''torch_dtype="auto", trust_remote_code=True)''')
CLEAN = False
