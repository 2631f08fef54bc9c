"""SEED-Bench with LLaVA-v1.5: eval.py calls `.cuda()` on a model that `load_pretrained_model` already spread over two GPUs.

Source: https://github.com/AILab-CVC/SEED-Bench/issues/21
Testing LLaVA-v1.5 with SEED-Bench's eval.py failed with "Expected all tensors to be on the same
device, but found at least two devices, cuda:0 and cuda:1! (when checking argument for argument mat1
in method wrapper_CUDA_addmm)". The reporter's analysis: LLaVA's `load_pretrained_model` defaults to
`device_map="auto"`, so the model is split over the GPUs with accelerate's AlignDevicesHook, and then
eval.py does `model = build_model(args.model).cuda()`, which puts every parameter on the default GPU
while the hooks keep sending activations to the other GPU. Solution given: remove that `.cuda()`.
Stand-ins: a toy LlavaLlamaForCausalLM dispatched over cuda:0/cuda:1 with pre-hooks in place of
AlignDevicesHook, the user's MLLM_Tester interface scoring the 4 choices; `.cuda()` is written
`.to("cuda:0")` (the default device).
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

def add_hook_to_module(module, execution_device):      # accelerate AlignDevicesHook (stand-in)
    def pre_forward(mod, args, kwargs):
        move = lambda t: t.to(execution_device) if isinstance(t, torch.Tensor) else t
        return tuple(move(a) for a in args), {k: move(v) for k, v in kwargs.items()}
    module.register_forward_pre_hook(pre_forward, with_kwargs=True)

class LlamaDecoderLayer(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.input_layernorm = nn.LayerNorm(d)
        self.mlp = nn.Linear(d, d)

    def forward(self, hidden_states):
        return hidden_states + self.mlp(self.input_layernorm(hidden_states))

class LlavaLlamaForCausalLM(nn.Module):
    def __init__(self, vocab=100, d=32, n_layers=4, patch_dim=48):
        super().__init__()
        self.vision_tower = nn.Linear(patch_dim, 24)           # CLIP ViT-L/14-336 (toy)
        self.mm_projector = nn.Linear(24, d)
        self.embed_tokens = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList([LlamaDecoderLayer(d) for _ in range(n_layers)])
        self.lm_head = nn.Linear(d, vocab)

    def forward(self, input_ids, images):
        image_features = self.mm_projector(self.vision_tower(images))
        h = torch.cat([image_features, self.embed_tokens(input_ids)], dim=1)
        for layer in self.layers:
            h = layer(h)
        return self.lm_head(h)

def load_pretrained_model(model_path, model_base, model_name, device_map="auto"):
    model = LlavaLlamaForCausalLM()
    # device_map="auto" on two GPUs: vision side + first half of the LLM on GPU 0, the rest on GPU 1
    hf_device_map = {"vision_tower": 0, "mm_projector": 0, "embed_tokens": 0,
                     "layers.0": 0, "layers.1": 0, "layers.2": 1, "layers.3": 1, "lm_head": 1}
    for name, gpu in hf_device_map.items():
        module = model.get_submodule(name)
        module.to(f"cuda:{gpu}")
        add_hook_to_module(module, f"cuda:{gpu}")
    model.hf_device_map = hf_device_map
    # io_same_device=True on the top module: outputs come back to the inputs' device
    model.register_forward_hook(lambda mod, args, out: out.to(args[0].device))
    return None, model, None, 2048

class MLLM_Tester(nn.Module):                               # the user's llava interface for SEED-Bench
    def __init__(self):
        super().__init__()
        tokenizer, model, image_processor, context_len = load_pretrained_model(
            "liuhaotian/llava-v1.5-7b", None, "llava-v1.5-7b")
        self.model = model

    def forward(self, data_info):
        device = next(self.model.parameters()).device
        images = data_info["image_patches"].to(device)
        losses = []
        for choice_ids in data_info["choice_ids"]:
            ids = choice_ids.to(device).unsqueeze(0)
            logits = self.model(ids, images)
            labels = torch.cat([torch.zeros(1, images.shape[1], dtype=torch.long, device=ids.device), ids], dim=1)
            losses.append(F.cross_entropy(logits.flatten(0, 1), labels.flatten()))
        return torch.stack(losses)

def build_model(model_name):
    return MLLM_Tester()

model = build_model("llava").to("cuda:0")                   # eval.py: build_model(args.model).cuda()

data_info = {
    "question": "What is the man holding?",
    "image_patches": torch.randn(1, 9, 48),                 # preprocessed image, CPU
    "choice_ids": [torch.randint(0, 100, (5,)) for _ in range(4)],
}
'''
CELL = '''
with torch.no_grad():
    losses = model(data_info)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('model = build_model("llava").to("cuda:0")', 'model = build_model("llava")')
CLEAN = False
