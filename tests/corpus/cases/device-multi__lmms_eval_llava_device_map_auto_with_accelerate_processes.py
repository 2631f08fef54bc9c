"""lmms-eval LLaVA with `accelerate launch --num_processes=4`: each process loads the model with device_map="auto".

Source: https://github.com/EvolvingLMMs-Lab/lmms-eval/issues/79
"Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cuda:1!
(when checking argument for argument weight in method wrapper_CUDA__cudnn_convolution) in
generating". Maintainers: set `device_map=""` (one device per process); "you can not set
num_processes > 1 and device_map=auto at the same time". Each process spread the model over the
GPUs (the CLIP vision tower landed on another card) while the images were sent to the process's own
`self.device`. Stand-in: a LLaVA-shaped model dispatched by hand the way the auto map split it, and
the wrapper's image encoding with `images.to(self._device)`.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

class CLIPVisionTower(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.patch_embedding = nn.Conv2d(3, hidden, kernel_size=8, stride=8)

    def forward(self, images):
        return self.patch_embedding(images).flatten(2).transpose(1, 2)

class LlavaLlamaForCausalLM(nn.Module):
    def __init__(self, hidden=32, vocab=100):
        super().__init__()
        self.vision_tower = CLIPVisionTower(hidden)
        self.mm_projector = nn.Linear(hidden, hidden)
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.lm_head = nn.Linear(hidden, vocab)

    def encode_images(self, images):
        return self.mm_projector(self.vision_tower(images))

class Llava:
    """lmms_eval.models.llava.Llava, rank 0 of 4: pretrained=..., device_map="auto" (the default)."""
    def __init__(self, device="cuda:0"):
        self._device = torch.device(device)
        self.model = LlavaLlamaForCausalLM()
        # what device_map="auto" did with four visible GPUs
        self.model.vision_tower.to("cuda:1")
        self.model.mm_projector.to("cuda:1")
        self.model.embed_tokens.to("cuda:0")
        self.model.lm_head.to("cuda:3")

lm = Llava(device="cuda:0")
images = torch.randn(1, 3, 32, 32)
'''
CELL = '''
with torch.no_grad():
    image_features = lm.model.encode_images(images.to(lm._device, dtype=torch.float32))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["lm.model.vision_tower"]
FIX = "namespace"
REFERENCE_FIX = '''
lm.model.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
