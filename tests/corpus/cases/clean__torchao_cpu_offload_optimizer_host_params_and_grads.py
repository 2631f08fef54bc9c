"""Look-alike: torchao's CPUOffloadOptimizer steps on pinned CPU copies of GPU parameters and copies them back.

Source: https://github.com/pytorch/ao/blob/main/torchao/optim/cpu_offload.py
"Offload optimizer to CPU for single-GPU training ... Optimizer step will be done on CPU": for each
device parameter it pre-allocates `p_host = torch.empty_like(p_device, device="cpu",
pin_memory=True)` with a CPU grad, builds one base optimizer per parameter over `p_host`, copies the
device grad to the host in a post-accumulate-grad hook, and after `optim.step()` copies
`p_device.copy_(p_host)`. An optimizer whose parameters and state are all on the CPU while the model
is on cuda:0 is the design. Stand-in: the class without streams/pinning; the backward hooks are
called by hand (fake cuda tensors cannot run autograd); the H2D copy is written
`p_device.data = p_host.to(device)` for the simulator (no `copy_` into fake cuda tensors); SGD with momentum as `optimizer_class`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class CPUOffloadOptimizer:
    def __init__(self, params, optimizer_class=torch.optim.SGD, **kwargs):
        self.param_d2h_map = {}
        self.optim_dict = {}
        self.queue = {}
        for p_device in params:
            if not p_device.requires_grad:
                continue
            p_host = torch.empty_like(p_device, device="cpu")
            p_host.grad = torch.empty_like(p_host)
            p_host.copy_(p_device.detach())
            self.param_d2h_map[p_device] = p_host
            self.optim_dict[p_device] = optimizer_class([{"params": p_host}], **kwargs)

    def backward_hook(self, p_device):           # registered with register_post_accumulate_grad_hook
        if p_device.grad is not None:
            p_host = self.param_d2h_map[p_device]
            p_host.grad.copy_(p_device.grad)
            self.queue[p_device] = True

    @torch.no_grad()
    def step(self):
        for p_device in self.queue:
            self.optim_dict[p_device].step()
            p_device.data = self.param_d2h_map[p_device].to(p_device.device, non_blocking=True)
        self.queue.clear()

    def zero_grad(self):
        for p_device in self.param_d2h_map:
            p_device.grad = None

model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10)).to("cuda:0")
optim = CPUOffloadOptimizer(list(model.parameters()), torch.optim.SGD, lr=1e-2, momentum=0.9)
# stand-in for loss.backward(): device grads, then the post-accumulate-grad hooks fire
for p in model.parameters():
    p.grad = torch.randn_like(p)
    optim.backward_hook(p)
'''
CELL = '''
optim.step()
optim.zero_grad()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
