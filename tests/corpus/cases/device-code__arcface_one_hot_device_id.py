"""A face-recognition margin head puts its one-hot labels on a GPU id taken from its config.

Source: https://github.com/zhongyy/Face-Transformer/issues/37
"Expected all tensors to be on the same device, but found at least two devices, cuda:0 and
cuda:1! (when checking argument for argument index in method wrapper_CUDA_scatter__value)".
The ArcFace head builds `one_hot = torch.zeros(cosine.size())` and moves it to
`device_id[0]` (GPU 0, from the config) while the user trains on GPU 1: the labels and the
cosine are on cuda:1. Stand-in: the head's forward with the same hard-coded device id.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

class ArcFace(nn.Module):
    def __init__(self, in_features, out_features, device_id, s=64.0, m=0.5):
        super().__init__()
        self.device_id = device_id
        self.s, self.m = s, m
        self.weight = nn.Parameter(torch.randn(out_features, in_features) * 0.01)

    def forward(self, x, label):
        cosine = F.linear(F.normalize(x), F.normalize(self.weight))
        sine = torch.sqrt((1.0 - cosine * cosine).clamp(0, 1))
        phi = cosine * math.cos(self.m) - sine * math.sin(self.m)
        one_hot = torch.zeros(cosine.size())
        if self.device_id is not None:
            one_hot = one_hot.to(f"cuda:{self.device_id[0]}")
        one_hot.scatter_(1, label.view(-1, 1).long(), 1)
        return ((one_hot * phi) + ((1.0 - one_hot) * cosine)) * self.s

head = ArcFace(16, 10, device_id=[0]).to("cuda:1")
embeddings = torch.randn(8, 16).to("cuda:1")
labels = torch.randint(0, 10, (8,)).to("cuda:1")
'''
CELL = '''
logits = head(embeddings, labels)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["head"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """        one_hot = torch.zeros(cosine.size())
        if self.device_id is not None:
            one_hot = one_hot.to(f"cuda:{self.device_id[0]}")
""",
    """        one_hot = torch.zeros(cosine.size(), device=cosine.device)
""",
)
CLEAN = False
