"""DataParallel as the tutorial writes it: wrap, then `model.to(device)` with device cuda:0.

Source: https://pytorch.org/tutorials/beginner/blitz/data_parallel_tutorial.html
`model = nn.DataParallel(model)` followed by `model.to(device)` puts the module on cuda:0 =
`device_ids[0]`, inputs on cuda:0 too: the layout DataParallel expects. Stand-in: DataParallel as
on a machine with 2 GPUs (torch's own forward and device check; scatter/replicate/gather on one
device, a CPU build has no NCCL).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class DataParallel(nn.DataParallel):
    # stand-in: nn.DataParallel(module) on a machine with GPUs 0 and 1
    def __init__(self, module, device_ids=(0, 1)):
        nn.Module.__init__(self)
        self.module, self.dim = module, 0
        self.device_ids = list(device_ids)
        self.output_device = self.device_ids[0]
        self.src_device_obj = torch.device(f"cuda:{self.device_ids[0]}")

    def scatter(self, inputs, kwargs, device_ids):
        return (tuple(t.to(self.src_device_obj) for t in inputs),), (kwargs,)

    def replicate(self, module, device_ids):
        return [module]

    def parallel_apply(self, replicas, inputs, kwargs):
        return [replicas[0](*inputs[0], **kwargs[0])]

    def gather(self, outputs, output_device):
        return outputs[0]

class Model(nn.Module):
    def __init__(self, input_size, output_size):
        super().__init__()
        self.fc = nn.Linear(input_size, output_size)

    def forward(self, input):
        return self.fc(input)

device = torch.device("cuda:0")
model = Model(5, 2)
model = DataParallel(model)
model.to(device)
data = torch.randn(30, 5).to(device)
'''
CELL = '''
output = model(data)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
