"""Look-alike: CDAN's RandomLayer keeps its random matrices in a plain list and moves them in its own `cuda()` override.

Source: https://github.com/thuml/CDAN/blob/master/pytorch/network.py
`RandomLayer.__init__` stores `self.random_matrix = [torch.randn(input_dim_list[i], output_dim) ...]`
(a Python list, invisible to `Module.to()`), and overrides `cuda()` to call the parent and then
`self.random_matrix = [val.cuda() for val in self.random_matrix]`; CDAN's train script calls
`random_layer.cuda()` before training. A list of tensors beside GPU features looks like a stray, but
the user's call moved them. Stand-in: the RandomLayer with its override (written `.to("cuda:0")` for
the simulator, which cannot run a bare `.cuda()`), a small backbone/classifier; fake cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
import torch.nn as nn

class RandomLayer(nn.Module):
    def __init__(self, input_dim_list=[], output_dim=1024):
        super(RandomLayer, self).__init__()
        self.input_num = len(input_dim_list)
        self.output_dim = output_dim
        self.random_matrix = [torch.randn(input_dim_list[i], output_dim) for i in range(self.input_num)]

    def forward(self, input_list):
        return_list = [torch.mm(input_list[i], self.random_matrix[i]) for i in range(self.input_num)]
        return_tensor = return_list[0] / math.pow(float(self.output_dim), 1.0 / len(return_list))
        for single in return_list[1:]:
            return_tensor = torch.mul(return_tensor, single)
        return return_tensor

    def cuda(self, device="cuda:0"):
        super(RandomLayer, self).to(device)                              # super().cuda()
        self.random_matrix = [val.to(device) for val in self.random_matrix]   # val.cuda()
        return self

base_network = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 5)).to("cuda:0")
random_layer = RandomLayer([64, 5], 128)
random_layer.cuda()
inputs = torch.randn(8, 32).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    features = base_network[:2](inputs)
    outputs = base_network[2](features)
    softmax_out = nn.Softmax(dim=1)(outputs)
    random_out = random_layer.forward([features, softmax_out])
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
