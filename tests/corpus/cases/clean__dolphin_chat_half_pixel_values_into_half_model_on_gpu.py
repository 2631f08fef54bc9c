"""Dolphin document parser on a GPU: `chat()` casts the image to float16 and the model was halved on CUDA, so they match.

Source: https://github.com/bytedance/Dolphin/pull/148
The demo halves the model when it runs on CUDA and prepares `pixel_values` with `.half()` before
moving them to the model's device. On a GPU machine the hard-coded cast is right; only the
CPU-only path (issue #141) mismatched. Stand-in: a conv patch-embedding encoder and a linear decoder.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class ImageProcessor:
    def __call__(self, image, return_tensors="pt"):
        return {"pixel_values": ((image - 0.5) / 0.5).unsqueeze(0)}

class VisionEncoderDecoder(nn.Module):
    def __init__(self, vocab=64, dim=32):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, dim, kernel_size=8, stride=8)
        self.encoder = nn.Linear(dim, dim)
        self.decoder = nn.Linear(dim, vocab)

    def generate(self, pixel_values, max_new_tokens=8):
        h = self.patch_embed(pixel_values).flatten(2).transpose(1, 2)
        h = torch.relu(self.encoder(h))
        return self.decoder(h).argmax(-1).narrow(1, 0, max_new_tokens)

class DOLPHIN:
    def __init__(self, model_id_or_path):
        self.processor = ImageProcessor()
        self.model = VisionEncoderDecoder()
        self.model.eval()
        self.device = "cuda:0"   # a GPU machine
        self.model.to(self.device)
        if self.device.startswith("cuda"):
            self.model = self.model.half()

    def chat(self, prompt, image):
        batch_inputs = self.processor(image, return_tensors="pt")
        pixel_values = batch_inputs["pixel_values"].half()
        with torch.no_grad():
            outputs = self.model.generate(pixel_values.to(self.device), max_new_tokens=8)
        return outputs

dolphin = DOLPHIN("./hf_model")
page = torch.rand(3, 64, 64)          # the scanned page, as the processor receives it
'''
CELL = '''
result = dolphin.chat("Parse the reading order of this document.", page)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
