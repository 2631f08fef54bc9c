"""RLlib ComplexInputNetwork on the GPU: the sub-networks kept in the `flatten` dict were never registered, so they stay on the CPU.

Source: https://github.com/ray-project/ray/issues/22659
"Some parameters of ComplexInputNetwork (pytorch) are not sent to CUDA": "Some member modules of
ComplexInputNetwork are not sent to the GPU when using .to(device) because they were not registered
as modules in the constructor. Member modules stored in a dict within a pytorch module are not
registered ... This is done for `self.cnns`. However it was forgotten for `self.one_hot` and
`self.flatten`" (also ray #23967: "fcnet variables on cpu when num_gpus = 1"). Stand-in: the network
reduced to one image component (CNN, registered) and one vector component (FC, not registered).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class ComplexInputNetwork(nn.Module):
    def __init__(self, component_shapes=((3, 16, 16), (10,)), num_outputs=4):
        super().__init__()
        self.cnns = {}
        self.flatten = {}
        concat_size = 0
        for i, shape in enumerate(component_shapes):
            if len(shape) == 3:
                self.cnns[i] = nn.Sequential(nn.Conv2d(shape[0], 8, 4, stride=4), nn.ReLU(), nn.Flatten())
                concat_size += 8 * (shape[1] // 4) * (shape[2] // 4)
                self.add_module("cnn_{}".format(i), self.cnns[i])
            else:
                self.flatten[i] = nn.Sequential(nn.Linear(shape[0], 32), nn.Tanh())
                concat_size += 32
        self.logits_layer = nn.Linear(concat_size, num_outputs)

    def forward(self, obs_components):
        outs = []
        for i, component in enumerate(obs_components):
            if i in self.cnns:
                outs.append(self.cnns[i](component))
            else:
                outs.append(self.flatten[i](component.flatten(1)))
        return self.logits_layer(torch.cat(outs, dim=1))

device = torch.device("cuda:0")
model = ComplexInputNetwork()
model.to(device)                               # TorchPolicy(..., num_gpus=1)
obs = [torch.rand(8, 3, 16, 16).to(device), torch.randn(8, 10).to(device)]
'''
CELL = '''
logits = model(obs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.flatten[1]"]
FIX = "namespace"
REFERENCE_FIX = '''
model.flatten[1].to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
