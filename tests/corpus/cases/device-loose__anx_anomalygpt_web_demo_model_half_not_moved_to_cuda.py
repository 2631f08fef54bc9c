"""AnomalyGPT web demo: the model is cast to half but never moved to the GPU, while images go to cuda.

Source: https://github.com/CASIA-LMC-Lab/AnomalyGPT/issues/113
Running the web demo, uploading an image and a question fails in the ImageBind vision preprocessor
("F.conv3d RuntimeError: Input type (torch.cuda.HalfTensor) and weight type (torch.HalfTensor) should be
the same"): the demo's generate path loads the image onto `self.device` (cuda), but the model's weights
stayed on the CPU. The answer in the thread: move the weights to the GPU, `model = model.to('cuda')`,
which the user confirmed works. Stand-ins: the ImageBind RGBT preprocessor (PadIm2Video + Conv3d stem,
cls token, positional embedding) and a model whose `generate` sends images to `self.device`.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

class RGBDTPreprocessor(nn.Module):
    def __init__(self, embed_dim=32, kernel=(2, 8, 8), num_patches=16):
        super().__init__()
        self.rgbt_stem = nn.Conv3d(3, embed_dim, kernel_size=kernel, stride=kernel, bias=False)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim))
        self.pos_embed = nn.Parameter(torch.zeros(1, num_patches + 1, embed_dim))

    def forward(self, vision):
        x = vision.unsqueeze(2).repeat(1, 1, 2, 1, 1)          # PadIm2Video(ntimes=2)
        x = self.rgbt_stem(x).flatten(2).transpose(1, 2)
        cls = self.cls_token.expand(x.shape[0], -1, -1)
        x = torch.cat((cls, x), dim=1)
        return x + self.pos_embed

class ImageBindVision(nn.Module):
    def __init__(self):
        super().__init__()
        self.preprocessor = RGBDTPreprocessor()
        self.head = nn.Linear(32, 32)

    def forward(self, vision):
        return self.head(self.preprocessor(vision)[:, 0])

class OpenLLAMAPEFTModel(nn.Module):
    def __init__(self, **args):
        super().__init__()
        self.visual_encoder = ImageBindVision()
        self.llama_proj = nn.Linear(32, 64)
        self.device = torch.device("cuda:0")       # torch.cuda.current_device()

    def load_and_transform_vision_data(self, image_paths, device):
        return torch.rand(len(image_paths), 3, 32, 32).to(device).half()

    def generate(self, inputs):
        images = self.load_and_transform_vision_data(inputs["image_paths"], self.device)
        image_embeds = self.visual_encoder(images)
        return self.llama_proj(image_embeds)

args = {"model": "openllama_peft", "max_tgt_len": 128}
model = OpenLLAMAPEFTModel(**args)
model = model.eval().half()                 # the demo: model.eval().half().cuda()
'''
CELL = '''
response = model.generate({"prompt": "Is there any anomaly in the image?", "image_paths": ["bottle_000.png"]})
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "Input type")
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model = model.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
