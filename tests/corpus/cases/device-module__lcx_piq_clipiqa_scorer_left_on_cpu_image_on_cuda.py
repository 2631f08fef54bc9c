"""piq.CLIPIQA built on the CPU, called with an image moved to cuda: `x - self.default_mean` mixes devices.

Source: https://github.com/photosynthesis-team/piq/issues/389
The user built `scorer = piq.CLIPIQA()`, scored a skimage image on the CPU, then called
`scorer.forward(img.to("cuda"))`: "Expected all tensors to be on the same device, cuda:0 and
cpu" at `x = (x - self.default_mean) / self.default_std` in clip_iqa.py. The maintainer closed it
as not a bug: the metric module must be moved to the image's device too (`scorer.to(device)`).
Stand-in: CLIPIQA with the normalisation constants as buffers, a tiny image encoder and two
prompt anchors; the uint8 image is drawn with `torch.randint` instead of `data.chelsea()`.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

OPENAI_CLIP_MEAN = (0.48145466, 0.4578275, 0.40821073)
OPENAI_CLIP_STD = (0.26862954, 0.26130258, 0.27577711)

class CLIPIQA(nn.Module):
    def __init__(self, data_range=255.):
        super().__init__()
        self.data_range = data_range
        self.register_buffer("default_mean", torch.tensor(OPENAI_CLIP_MEAN).view(1, 3, 1, 1))
        self.register_buffer("default_std", torch.tensor(OPENAI_CLIP_STD).view(1, 3, 1, 1))
        self.feature_extractor = nn.Sequential(nn.Conv2d(3, 16, 8, stride=8), nn.ReLU(),
                                               nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 32))
        self.register_buffer("anchors", torch.randn(2, 32))   # "Good photo." / "Bad photo."
        self.logit_scale = 100.

    def forward(self, x):
        x = x.float() / self.data_range
        x = (x - self.default_mean) / self.default_std
        features = F.normalize(self.feature_extractor(x), dim=-1)
        anchors = F.normalize(self.anchors, dim=-1)
        logits = self.logit_scale * features @ anchors.t()
        return logits.softmax(dim=-1)[:, 0]

img = torch.randint(0, 256, (1, 3, 64, 64), dtype=torch.uint8)   # data.chelsea(), unsqueeze+permute
scorer = CLIPIQA()
'''
CELL = '''
print(scorer.forward(img.to("cuda:0")))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["scorer"]
FIX = "namespace"
REFERENCE_FIX = '''
scorer.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
