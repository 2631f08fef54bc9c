"""LLaVA load_pretrained_model moves the vision tower to a hard-coded 'cuda', whatever device the model got.

Source: https://github.com/haotian-liu/LLaVA/pull/483
"fix: update vision tower device to be consistent with the model device": `builder.py` loaded the
language model with the requested `device_map` but then did
`vision_tower.to(device='cuda', dtype=torch.float16)`, i.e. the default card. Serving on another
card (`device_map={"": "cuda:1"}`), the CLIP tower sat on cuda:0; `CLIPVisionTower.forward` moves
the images to its own device, so the features come out on cuda:0 and the `mm_projector` on cuda:1
fails with "Expected all tensors to be on the same device". The maintainer closed the PR as fixed
by #479, which passes `device` through to that call. Stand-in: builder.py / llava_arch.py at toy size.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class CLIPVisionTower(nn.Module):
    def __init__(self, hidden=24):
        super().__init__()
        self.vision_tower = nn.Sequential(nn.Conv2d(3, hidden, 8, stride=8), nn.Flatten(2))
        self.is_loaded = True

    @property
    def device(self):
        return self.vision_tower[0].weight.device

    @property
    def dtype(self):
        return self.vision_tower[0].weight.dtype

    @torch.no_grad()
    def forward(self, images):
        image_forward_outs = self.vision_tower(images.to(device=self.device, dtype=self.dtype))
        return image_forward_outs.transpose(1, 2).to(images.dtype)

class LlavaLlamaModel(nn.Module):
    def __init__(self, hidden=32, vocab=100):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.mm_projector = nn.Sequential(nn.Linear(24, hidden), nn.GELU(), nn.Linear(hidden, hidden))
        self.vision_tower = CLIPVisionTower()

class LlavaLlamaForCausalLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = LlavaLlamaModel()
        self.lm_head = nn.Linear(32, 100, bias=False)

    @property
    def device(self):
        return self.lm_head.weight.device

    def get_model(self):
        return self.model

    def get_vision_tower(self):
        return self.model.vision_tower

    def encode_images(self, images):
        image_features = self.get_model().vision_tower(images)
        return self.get_model().mm_projector(image_features)

def load_pretrained_model(model_path, model_base, model_name, device_map="auto", device="cuda"):
    model = LlavaLlamaForCausalLM()
    # from_pretrained(model_path, low_cpu_mem_usage=True, device_map=device_map, torch_dtype=torch.float16)
    target = device_map[""] if isinstance(device_map, dict) else "cuda:0"
    model.model.embed_tokens.to(target)
    model.model.mm_projector.to(target)
    model.lm_head.to(target)
    vision_tower = model.get_vision_tower()
    vision_tower.to(device="cuda:0", dtype=torch.float32)    # builder.py: vision_tower.to(device='cuda', ...)
    return None, model, None, 2048

device = "cuda:1"
tokenizer, model, image_processor, context_len = load_pretrained_model(
    "liuhaotian/llava-v1.5-7b", None, "llava-v1.5-7b", device_map={"": device}, device=device)
# process_images([image], image_processor, model.config).to(model.device, dtype=...)
images_tensor = torch.randn(1, 3, 32, 32).to(model.device)
'''
CELL = '''
with torch.inference_mode():
    image_features = model.encode_images(images_tensor)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.model.vision_tower"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    'vision_tower.to(device="cuda:0", dtype=torch.float32)',
    'vision_tower.to(device=device, dtype=torch.float32)',
)
CLEAN = False
