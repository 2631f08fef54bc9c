"""NeuroMANCER PINN example: the collocation-point dictionary stays on the CPU, the network is on cuda.

Source: https://github.com/pnnl/neuromancer/issues/177
In the "Part 1: PINN diffusion equation" notebook, on a GPU runtime, `pde_net(train_data.datadict)`
and then `trainer.train()` failed with "Expected all tensors to be on the same device, ... cuda:0 and
cpu! (when checking argument for argument mat1 in method wrapper_CUDA_addmm)": the node network had
been moved to the device, but the `DictDataset` holding the collocation tensors `x`, `t` was built from
CPU tensors (fixed in pnnl/neuromancer#191 by putting the data on the device). Stand-in: minimal
`DictDataset`, `Node` and an MLP block that concatenates its inputs, as in neuromancer.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
from torch import nn

class DictDataset:
    def __init__(self, datadict, name="train"):
        self.datadict = datadict
        self.name = name

class MLP(nn.Module):
    def __init__(self, insize, outsize, hsizes=(32, 32)):
        super().__init__()
        sizes = [insize, *hsizes]
        layers = []
        for a, b in zip(sizes[:-1], sizes[1:]):
            layers += [nn.Linear(a, b), nn.Tanh()]
        self.net = nn.Sequential(*layers, nn.Linear(sizes[-1], outsize))

    def forward(self, *inputs):
        return self.net(torch.cat(inputs, dim=-1))

class Node(nn.Module):
    def __init__(self, callable, input_keys, output_keys, name=None):
        super().__init__()
        self.callable, self.input_keys, self.output_keys, self.name = callable, input_keys, output_keys, name

    def forward(self, data):
        output = self.callable(*[data[k] for k in self.input_keys])
        return {self.output_keys[0]: output}

device = torch.device("cuda:0")
Nf = 1000                               # collocation points in the (x, t) domain
x_f = torch.rand(Nf, 1) * 2 - 1
t_f = torch.rand(Nf, 1)
train_data = DictDataset({"x": x_f.requires_grad_(True), "t": t_f.requires_grad_(True)}, name="train")
net = MLP(insize=2, outsize=1, hsizes=[32, 32])
pde_net = Node(net, ["x", "t"], ["y"], name="net").to(device)
'''
CELL = '''
out = pde_net(train_data.datadict)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["train_data.datadict"]
FIX = "namespace"
REFERENCE_FIX = '''
train_data.datadict = {k: v.detach().to(device).requires_grad_(True) for k, v in train_data.datadict.items()}
'''
REFERENCE_EDIT = None
CLEAN = False
