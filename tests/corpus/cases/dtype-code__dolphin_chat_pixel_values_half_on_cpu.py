"""Dolphin document parser on a CPU: `chat()` always casts the image tensor to float16, the model is float32.

Source: https://github.com/bytedance/Dolphin/pull/148
"[FIX] Use float32 on CPU and float16 on GPU to prevent input dtype mismatch ... Prevents runtime
error: `Input type (c10::Half) and bias type (float) should be the same`" (fixes issue #141). The
demo's `DOLPHIN.chat` prepares `pixel_values` with a hard-coded `.half()`, which only matches the
model when it was halved on CUDA; on a CPU-only machine the model stays float32. Stand-in: a
conv patch-embedding encoder and a linear decoder in place of the Swin/MBart model.
"""

SIM = "cpu"
FAMILY = "dtype-code"
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
        return self.decoder(h).argmax(-1)[:, :max_new_tokens]

class DOLPHIN:
    def __init__(self, model_id_or_path):
        self.processor = ImageProcessor()
        self.model = VisionEncoderDecoder()
        self.model.eval()
        self.device = "cuda" if torch.cuda.is_available() else "cpu"
        self.model.to(self.device)
        if self.device == "cuda":
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
EXPECT_ERROR = "Input type (c10::Half) and bias type (float) should be the same"
CULPRITS = ["dolphin"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    'pixel_values = batch_inputs["pixel_values"].half()',
    'pixel_values = batch_inputs["pixel_values"].to(next(self.model.parameters()).dtype)',
)
CLEAN = False
