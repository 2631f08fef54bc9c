"""Look-alike: a BCEWithLogitsLoss `pos_weight` made on the GPU, inside a ModuleList of criterions moved with `.to(device)`.

Source: https://github.com/ImprintLab/Medical-SAM2/issues/78
The training script builds `pos_weight = torch.ones([1]).cuda(device=device)*2` and
`criterions = nn.ModuleList([nn.BCEWithLogitsLoss(pos_weight=pos_weight), nn.L1Loss()]).to(device)`
(the user asked only why the weight is 2). The loss weight is a buffer already on the model's
device, so the loss runs and nothing must be reported.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

device = torch.device("cuda:0")
pos_weight = torch.ones([1]).to(device) * 2
criterions = nn.ModuleList([nn.BCEWithLogitsLoss(pos_weight=pos_weight), nn.L1Loss()]).to(device)
net = nn.Conv2d(3, 1, 3, padding=1).to(device)
imgs = torch.randn(2, 3, 16, 16, device="cuda:0")
masks = torch.randint(0, 2, (2, 1, 16, 16), device="cuda:0").float()
'''
CELL = '''
with torch.no_grad():
    pred = net(imgs)
    loss = criterions[0](pred, masks)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
