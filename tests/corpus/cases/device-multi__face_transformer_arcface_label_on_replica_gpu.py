"""Face-Transformer's ArcFace head builds one_hot on device_id[0] but scatters labels from another GPU.

Source: https://github.com/zhongyy/Face-Transformer/issues/37
"Expected all tensors to be on the same device, but found at least two devices, cuda:0 and
cuda:1! (when checking argument for argument index in method wrapper_CUDA_scatter__value)".
In vit_face.py the margin heads take `device_id` (the GPU list); ArcFace puts `cosine` and
`one_hot` on `device_id[0]` and then calls `one_hot.scatter_(1, label.view(-1, 1).long(), 1)`
with the label where it arrived - on the second GPU for the second DataParallel replica. CosFace
in the same file already does `label.cuda(self.device_id[0])`; doing the same in ArcFace is the
fix (my choice; the issue has no answer). Stand-ins: `.cuda(i)` written `.to(f"cuda:{i}")`
(fake cuda), and a minimal DataParallel that scatters the batch over cuda:0/cuda:1.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import math
import torch
import torch.nn.functional as F
from torch import nn
from torch.nn import Parameter

class ArcFace(nn.Module):
    def __init__(self, in_features, out_features, device_id, s=64.0, m=0.50, easy_margin=False):
        super(ArcFace, self).__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.device_id = device_id
        self.s = s
        self.m = m
        self.weight = Parameter(torch.FloatTensor(out_features, in_features))
        nn.init.xavier_uniform_(self.weight)
        self.easy_margin = easy_margin
        self.cos_m = math.cos(m)
        self.sin_m = math.sin(m)
        self.th = math.cos(math.pi - m)
        self.mm = math.sin(math.pi - m) * m

    def forward(self, input, label):
        x = input
        sub_weights = torch.chunk(self.weight, len(self.device_id), dim=0)
        temp_x = x.to(f"cuda:{self.device_id[0]}")
        weight = sub_weights[0].to(f"cuda:{self.device_id[0]}")
        cosine = F.linear(F.normalize(temp_x), F.normalize(weight))
        for i in range(1, len(self.device_id)):
            temp_x = x.to(f"cuda:{self.device_id[i]}")
            weight = sub_weights[i].to(f"cuda:{self.device_id[i]}")
            cosine = torch.cat((cosine, F.linear(F.normalize(temp_x), F.normalize(weight)).to(f"cuda:{self.device_id[0]}")), dim=1)
        sine = torch.sqrt(1.0 - torch.pow(cosine, 2))
        phi = cosine * self.cos_m - sine * self.sin_m
        phi = torch.where(cosine > self.th, phi, cosine - self.mm)
        one_hot = torch.zeros(cosine.size())
        if self.device_id != None:
            one_hot = one_hot.to(f"cuda:{self.device_id[0]}")
        one_hot.scatter_(1, label.view(-1, 1).long(), 1)
        output = (one_hot * phi) + ((1.0 - one_hot) * cosine)
        output *= self.s
        return output

class DataParallelStandIn(nn.Module):
    """nn.DataParallel stand-in: each replica gets its chunk of the batch on its own GPU."""

    def __init__(self, module, device_ids):
        super().__init__()
        self.module, self.device_ids = module, device_ids

    def forward(self, emb, label):
        outs = []
        for i, (e, l) in enumerate(zip(emb.chunk(len(self.device_ids)), label.chunk(len(self.device_ids)))):
            dev = f"cuda:{self.device_ids[i]}"
            outs.append(self.module(e.to(dev), l.to(dev)).to(f"cuda:{self.device_ids[0]}"))
        return torch.cat(outs)

GPU_ID = [0, 1]
HEAD = ArcFace(in_features=64, out_features=100, device_id=GPU_ID).to("cuda:0")
head = DataParallelStandIn(HEAD, device_ids=GPU_ID)
features = torch.randn(8, 64).to("cuda:0")
labels = torch.randint(0, 100, (8,)).to("cuda:0")
'''
CELL = '''
outputs = head(features, labels)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["label"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("one_hot.scatter_(1, label.view(-1, 1).long(), 1)",
                  "one_hot.scatter_(1, label.to(one_hot.device).view(-1, 1).long(), 1)")
CLEAN = False
