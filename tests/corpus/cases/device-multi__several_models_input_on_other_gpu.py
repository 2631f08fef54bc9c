"""Several models on cuda:0, cuda:1 and the CPU: an embedding made on cuda:0 fed to the cuda:1 one.

Source: https://github.com/visual-openllm/visual-openllm/issues/20
Visual-ChatGPT-style apps load each tool model on its own device ("ImageCaptioning_cuda:0,
Text2Image_cuda:1, Image2Canny_cpu, ..."), some in float16. Inputs prepared on cuda:0 and passed
to the model on cuda:1 raised "found at least two devices, cuda:0 and cuda:1". The input must be
judged against the model it is fed to (cuda:1, float16), not against the largest model.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

image_captioning = nn.Sequential(nn.Linear(512, 1024), nn.GELU(), nn.Linear(1024, 512))
image_captioning = image_captioning.to("cuda:0")
text2image = nn.Sequential(nn.Linear(64, 128), nn.SiLU(), nn.Linear(128, 256))
text2image = text2image.half().to("cuda:1")
image2canny = nn.Sequential(nn.Linear(256, 256))

prompt_embeds = torch.randn(1, 77, 64, dtype=torch.float16, device="cuda:0")
'''
CELL = '''
image = text2image(prompt_embeds)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["prompt_embeds"]
FIX = "namespace"
REFERENCE_FIX = '''
prompt_embeds = prompt_embeds.to("cuda:1")
'''
REFERENCE_EDIT = None
CLEAN = False
