"""Tour cost: gather a CPU coordinate tensor with tour indices produced by the model on the GPU.

Source: https://github.com/yining043/TSP-improve/issues/7
`d = dataset.gather(1, rec.long().unsqueeze(-1).expand_as(dataset))` raised "Expected all tensors
to be on the same device, but found at least two devices, cpu and cuda:0! (when checking argument
for argument index in method wrapper_gather)": the tours came from the model on cuda, the
instance coordinates were still on the CPU. The user's fix moved `dataset` to the GPU.
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import torch

def get_costs(dataset, rec):
    d = dataset.gather(1, rec.long().unsqueeze(-1).expand_as(dataset))
    return (d[:, 1:] - d[:, :-1]).norm(p=2, dim=2).sum(1)

dataset = torch.rand(4, 10, 2)
rec = torch.stack([torch.randperm(10) for _ in range(4)]).to("cuda:0")
'''
CELL = '''
d = dataset.gather(1, rec.long().unsqueeze(-1).expand_as(dataset))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["dataset"]
FIX = "namespace"
REFERENCE_FIX = '''
dataset = dataset.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
