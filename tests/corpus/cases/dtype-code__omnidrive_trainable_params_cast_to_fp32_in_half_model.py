"""OmniDrive casts every trainable parameter to float32 after the model went to half precision.

Source: https://github.com/NVlabs/OmniDrive/issues/103
"expected scalar type Half but found Float": `projects/mmdet3d_plugin/models/utils/misc.py` does
`for param in filter(lambda p: p.requires_grad, model.parameters()): param.data =
param.data.to(torch.float32)`; after that the half-precision features reach the float32 trainable
layers and the forward raises a dtype mismatch. The user asked whether removing the cast is safe;
removing it is the fix chosen here (my choice - no maintainer answer). Stand-in: a frozen fp16
backbone with a trainable adapter head, on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
import torch.nn as nn

class DetectorStandIn(nn.Module):
    def __init__(self, dim=32, num_queries=10):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.LayerNorm(dim))
        self.adapter = nn.Linear(dim, dim)
        self.head = nn.Linear(dim, 7)

    def forward(self, feats):
        return self.head(self.adapter(self.backbone(feats)))

model = DetectorStandIn()
for p in model.backbone.parameters():
    p.requires_grad = False
model.half()

def cast_trainable_to_fp32(model):
    for param in filter(lambda p: p.requires_grad, model.parameters()):
        param.data = param.data.to(torch.float32)

cast_trainable_to_fp32(model)
img_feats = torch.randn(2, 10, 32).half()
'''
CELL = '''
preds = model(img_feats)
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected scalar type")
CULPRITS = ["model.adapter"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("param.data = param.data.to(torch.float32)", "pass")
CLEAN = False
