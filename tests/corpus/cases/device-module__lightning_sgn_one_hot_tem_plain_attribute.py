"""Lightning port of SGN: the one-hot frame-index tensor `self.tem` built in `__init__` stays on the CPU.

Source: https://github.com/Lightning-AI/pytorch-lightning/issues/3674
"Tensor is not moved to the expected device": the user's LightningModule made
`self.tem = self.one_hot(self.seg, self.num_joints).permute(2, 0, 1)` in `__init__` (the temporal
one-hot of SGN skeleton action recognition) and found it still on the CPU in `forward` when
training on the GPU. A plain tensor attribute is not moved with the module; the answer is to
register it as a buffer. Stand-in: the Trainer's move to the GPU is `model.to("cuda:0")`, and the
temporal embedding is a small Linear stack.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class LitModel(nn.Module):          # pl.LightningModule in the report
    def __init__(self) -> None:
        super().__init__()
        self.seg = 20
        self.num_joints = 25
        self.tem = self.one_hot(self.seg, self.num_joints)
        self.tem = self.tem.permute(2, 0, 1)
        self.joint_embed = nn.Sequential(nn.Linear(3, 64), nn.ReLU())
        self.tem_embed = nn.Sequential(nn.Linear(self.seg, 64), nn.ReLU())
        self.layer_2 = torch.nn.Linear(64, 10)

    def one_hot(self, spa, tem) -> torch.Tensor:
        y = torch.arange(spa).unsqueeze(-1)
        y_onehot = torch.zeros(spa, spa)
        y_onehot.scatter_(1, y, 1)
        y_onehot = y_onehot.unsqueeze(0)
        y_onehot = y_onehot.repeat(tem, 1, 1)
        return y_onehot

    def forward(self, x):
        # x: (batch, seg, joints, 3) skeleton coordinates
        dy = self.joint_embed(x)
        tem1 = self.tem_embed(self.tem)          # (seg, joints, 64)
        h = F.relu(dy + tem1)
        return self.layer_2(h.mean(dim=(1, 2)))

model = LitModel()
model.to("cuda:0")                  # what the Trainer does with gpus=1
x = torch.randn(8, 20, 25, 3, device="cuda:0")
'''
CELL = '''
logits = model(x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.tem"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """        self.tem = self.one_hot(self.seg, self.num_joints)
        self.tem = self.tem.permute(2, 0, 1)""",
    """        self.register_buffer("tem", self.one_hot(self.seg, self.num_joints).permute(2, 0, 1))""",
)
CLEAN = False
