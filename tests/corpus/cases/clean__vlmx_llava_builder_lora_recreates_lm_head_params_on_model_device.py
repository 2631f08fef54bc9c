"""LLaVA's builder (LoRA path) replaces `lm_head.weight` and `embed_tokens.weight` with fresh Parameters after the model is on the GPU, created on `model.device`.

Source: https://github.com/haotian-liu/LLaVA/blob/main/llava/model/builder.py
When a LoRA checkpoint was trained with a resized vocabulary, `load_pretrained_model` finds
`model.lm_head.weight.shape[0] != token_num` after loading the base model with
`device_map={"": device}` and rebuilds both matrices:
`model.lm_head.weight = torch.nn.Parameter(torch.empty(token_num, tokem_dim, device=model.device, dtype=model.dtype))`
(and the same for `model.model.embed_tokens.weight`) before loading the non-LoRA trainables.
Look-alike: parameters assigned after `.to(device)` (the classic way to leave one on the CPU), here
created with the model's device and dtype; the resized model runs on cuda:0.
Stand-ins: a toy LlavaLlamaForCausalLM with HF's `device`/`dtype` properties; the checkpoint loads
that follow are left out (random values stand in for the loaded rows).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class LlavaLlamaModel(nn.Module):
    def __init__(self, vocab=100, d=32):
        super().__init__()
        self.vision_tower = nn.Linear(48, 24)
        self.mm_projector = nn.Linear(24, d)
        self.embed_tokens = nn.Embedding(vocab, d)

class LlavaLlamaForCausalLM(nn.Module):
    def __init__(self, vocab=100, d=32):
        super().__init__()
        self.model = LlavaLlamaModel(vocab, d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    @property
    def device(self):
        return next(self.parameters()).device

    @property
    def dtype(self):
        return next(self.parameters()).dtype

    def forward(self, input_ids, images):
        image_features = self.model.mm_projector(self.model.vision_tower(images))
        h = torch.cat([image_features, self.model.embed_tokens(input_ids)], dim=1)
        return self.lm_head(h)

device = "cuda:0"
# LlavaLlamaForCausalLM.from_pretrained(model_base, low_cpu_mem_usage=True, config=lora_cfg_pretrained,
#                                       device_map={"": device}, torch_dtype=torch.float16)
model = LlavaLlamaForCausalLM().to(device=device, dtype=torch.float16)
token_num, tokem_dim = 102, 32                      # lora_cfg_pretrained: vocab grew by 2 image tokens
images = torch.randn(1, 9, 48)
input_ids = torch.randint(0, 102, (1, 6))
'''
CELL = '''
if model.lm_head.weight.shape[0] != token_num:
    model.lm_head.weight = torch.nn.Parameter(torch.empty(token_num, tokem_dim, device=model.device, dtype=model.dtype))
    model.model.embed_tokens.weight = torch.nn.Parameter(torch.empty(token_num, tokem_dim, device=model.device, dtype=model.dtype))
with torch.no_grad():
    logits = model(input_ids.to(model.device), images.to(device=model.device, dtype=model.dtype))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
