"""RLlib ComplexInputNetwork (torch) with `num_gpus=1`: the `flatten` sub-networks live in a plain dict and stay on the CPU.

Source: https://github.com/ray-project/ray/issues/23967
Training PPO on a Dict observation (pixels + a Box vector) with `num_gpus: 1` failed with
"Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0!
(when checking argument for argument mat1 in method wrapper_addmm)": ComplexInputNetwork keeps its
per-component `self.flatten[i]` FC nets in a plain Python dict; only `self.cnns` were registered
with `add_module`, so `model.to(device)` never moves the flatten nets. RLlib's fix registers them
(later: `nn.ModuleDict`).
Stand-in: ComplexInputNetwork's constructor and forward for one image and one Box component.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class SlimFC(nn.Module):
    def __init__(self, in_size, out_size):
        super().__init__()
        self._model = nn.Sequential(nn.Linear(in_size, out_size), nn.Tanh())
    def forward(self, x):
        return self._model(x)

class ComplexInputNetwork(nn.Module):
    def __init__(self, image_shape=(3, 32, 32), box_dim=6, num_outputs=4):
        super().__init__()
        self.cnns = {}
        self.flatten = {}
        self.cnns[0] = nn.Sequential(nn.Conv2d(image_shape[0], 8, 4, stride=2), nn.ReLU(),
                                     nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.add_module("cnn_0", self.cnns[0])
        self.flatten[1] = SlimFC(box_dim, 16)
        self.post_fc_stack = SlimFC(8 + 16, 32)
        self.logits_layer = nn.Linear(32, num_outputs)

    def forward(self, obs):
        outs = [self.cnns[0](obs["pixels"]), self.flatten[1](obs["state"])]
        out = self.post_fc_stack(torch.cat(outs, dim=1))
        return self.logits_layer(out)

device = torch.device("cuda:0")
model = ComplexInputNetwork().to(device)
obs = {"pixels": torch.randn(4, 3, 32, 32, device=device), "state": torch.randn(4, 6, device=device)}
'''
CELL = '''
logits = model(obs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.flatten"]
FIX = "namespace"
REFERENCE_FIX = '''
for k in model.flatten:
    model.flatten[k].to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
