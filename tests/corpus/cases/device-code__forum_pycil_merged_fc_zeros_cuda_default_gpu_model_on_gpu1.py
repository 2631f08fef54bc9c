"""PyCIL incremental net trained on GPU 1: `torch.zeros(...).cuda()` in forward lands on GPU 0.

Source: https://github.com/LAMDA-CL/PyCIL/issues/60
"When i run codes on GPU1, it seems that .cuda() will put data on default GPU and then bugs
occurred": utils/inc_net.py, in forward, `fc_weight = torch.cat([self.old_fc.weight,
torch.zeros((new_task_size,self.feature_dim-self.out_dim)).cuda()],dim=0)` raised "Expected all
tensors to be on the same device, but found at least two devices, cuda:1 and cuda:0! (when
checking argument for argument tensors in method wrapper_cat)". `.cuda()` means the current
device (cuda:0) while the network sits on `args["device"][0]` = cuda:1; the maintainers fixed it
(later versions write `.to(self._device)`). Stand-in: the merged-head forward of the BEEF net
with two convnets and old/new fc layers (the prototype-bias loop and the bias concat are left
out); `.cuda()` is written `.to("cuda:0")`, the current device.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

class ConvNet(nn.Module):
    def __init__(self, out_dim=16):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, out_dim, 3, stride=2, padding=1), nn.ReLU(),
                                  nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.out_dim = out_dim

    def forward(self, x):
        return {"features": self.body(x)}

class BEEFISONet(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.convnets = nn.ModuleList([ConvNet(), ConvNet()])
        self.out_dim = 16
        self.old_fc = nn.Linear(16, 10)        # classes of the first task
        self.new_fc = nn.Linear(16, 15)        # new convnet's head over all classes seen
        self.task_sizes = [10, 5]
        self.args = args
        self._device = args["device"][0]

    @property
    def feature_dim(self):
        if self.out_dim is None:
            return 0
        return self.out_dim * len(self.convnets)

    def forward(self, x):
        features = [convnet(x)["features"] for convnet in self.convnets]
        features = torch.cat(features, 1)
        new_task_size = self.task_sizes[-1]
        fc_weight = torch.cat([self.old_fc.weight,torch.zeros((new_task_size,self.feature_dim-self.out_dim)).to("cuda:0")],dim=0)
        new_fc_weight = self.new_fc.weight
        new_fc_bias = self.new_fc.bias
        fc_weight = torch.cat([fc_weight,new_fc_weight],dim=1)
        logits = features@fc_weight.permute(1,0)+new_fc_bias
        return {"logits": logits}

args = {"device": [torch.device("cuda:1")]}     # --device 1
model = BEEFISONet(args).to(args["device"][0])
inputs = torch.randn(8, 3, 32, 32).to(args["device"][0])
'''
CELL = '''
logits = model(inputs)["logits"]
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    ".to(\"cuda:0\")],dim=0)",
    ".to(self._device)],dim=0)",
)
CLEAN = False
