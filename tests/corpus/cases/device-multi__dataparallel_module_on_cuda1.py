"""DataParallel over GPUs 0 and 1 wrapping a model the user had put on cuda:1.

Source: https://github.com/replicate/cog/issues/971
The user picked the second GPU (`torch.cuda.set_device('cuda:1')`, model moved there) and wrapped
the model in `nn.DataParallel`, whose `device_ids` default to all GPUs starting at 0: "module must
have its parameters and buffers on device cuda:0 (device_ids[0]) but found one of them on device:
cuda:1". Stand-in: `nn.DataParallel` as on a machine with 2 GPUs — torch's own `forward` and
device check, scatter/replicate/gather kept on one device (a CPU build has no NCCL).
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
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

device = "cuda:1"
model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10)).to(device)
model = DataParallel(model)
x = torch.randn(16, 32, device=device)
'''
CELL = '''
out = model(x)
'''
EXPECT_ERROR = "(device_ids[0]) but found one of them on device: cuda:1"
CULPRITS = ["model.module"]
FIX = "namespace"
REFERENCE_FIX = '''
model.module.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
