"""Look-alike: torchvision's reference scripts resume with `torch.load(..., map_location='cpu')` and load the CPU state into the model and optimizer already on the rank's GPU.

Source: https://github.com/pytorch/vision/pull/2142
The segmentation reference fix loads the checkpoint on the CPU and calls
`model_without_ddp.load_state_dict(checkpoint['model'])`, `optimizer.load_state_dict(...)` after the
model was moved to `cuda:{gpu}`; the maintainer explains why this works with DDP (one GPU per
process). `load_state_dict` copies CPU tensors into the GPU parameters, and the optimizer casts its
loaded state to each parameter's device. Stand-ins: a small segmentation head; the checkpoint dict is
built on the CPU instead of read from disk; the GPU is the `meta` device (cpu + meta
simulation); the model is not wrapped in DDP (no process group).
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def make_model():
    return nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 4, 1))

gpu = 1
device = torch.device("meta")     # stands for cuda:{gpu} (copying into a simulated GPU is not possible here)
model = make_model().to(device)
model_without_ddp = model
params_to_optimize = [{"params": [p for p in model_without_ddp.parameters() if p.requires_grad]}]
optimizer = torch.optim.SGD(params_to_optimize, lr=0.01, momentum=0.9, weight_decay=1e-4)

# checkpoint = torch.load(args.resume, map_location='cpu')
saved = make_model()
checkpoint = {"model": saved.state_dict(),
              "optimizer": {"state": {i: {"momentum_buffer": torch.zeros_like(p)}
                                      for i, p in enumerate(saved.parameters())},
                            "param_groups": [dict(optimizer.state_dict()["param_groups"][0])]},
              "epoch": 3}
model_without_ddp.load_state_dict(checkpoint["model"])
optimizer.load_state_dict(checkpoint["optimizer"])
image = torch.randn(2, 3, 16, 16).to(device)
'''
CELL = '''
output = model(image)
momentum_devices = {str(s["momentum_buffer"].device) for s in optimizer.state.values()}
print(output.shape, momentum_devices)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
