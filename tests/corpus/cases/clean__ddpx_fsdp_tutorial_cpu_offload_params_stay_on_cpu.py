"""Look-alike: FSDP with `CPUOffload(offload_params=True)` keeps the model's parameters on the CPU while the batch is on the rank's GPU; FSDP unshards them onto the compute device for each forward.

Source: https://github.com/pytorch/tutorials/blob/main/intermediate_source/FSDP_tutorial.rst
The tutorial's MNIST `Net` is wrapped with `FSDP(model, auto_wrap_policy=my_auto_wrap_policy,
cpu_offload=CPUOffload(offload_params=True))`, and `train()` moves `data, target = data.to(rank),
target.to(rank)`. With parameter offload the sharded parameters live on the CPU (FSDP refuses a module
already moved to the GPU), and FSDP's pre-forward unshard all-gathers them to the compute device and
points the module's parameters at those GPU views, then frees them after the forward.
Stand-ins: a two-layer MLP for the tutorial's convolutional Net (simulated conv does not check devices);
FSDP's unshard/reshard as pre/post forward hooks that swap each wrapped leaf's parameters for copies on
the compute device and back (no sharding, no process group), in the process of rank 0.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class CPUOffload:
    def __init__(self, offload_params=False):
        self.offload_params = offload_params

class FSDP(nn.Module):
    # stand-in for FullyShardedDataParallel with CPU parameter offload
    def __init__(self, module, device_id, cpu_offload=None):
        super().__init__()
        self.module = module
        self.compute_device = torch.device("cuda", device_id)
        self.cpu_offload = cpu_offload
        for leaf in module.modules():
            if list(leaf.parameters(recurse=False)):
                leaf.register_forward_pre_hook(self._unshard)
                leaf.register_forward_hook(self._reshard)

    def _unshard(self, mod, args):
        mod._sharded = dict(mod._parameters)
        for name, p in mod._sharded.items():
            mod._parameters[name] = nn.Parameter(p.detach().to(self.compute_device), requires_grad=p.requires_grad)

    def _reshard(self, mod, args, out):
        mod._parameters.update(mod._sharded)
        del mod._sharded

    def forward(self, *args, **kwargs):
        args = tuple(a.to(self.compute_device) if isinstance(a, torch.Tensor) else a for a in args)
        return self.module(*args, **kwargs)

class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.fc1 = nn.Linear(28 * 28, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        return F.log_softmax(self.fc2(x), dim=1)

rank = 0
model = Net()                                  # stays on the CPU: parameters are offloaded
model = FSDP(model, device_id=rank, cpu_offload=CPUOffload(offload_params=True))
data, target = torch.randn(8, 1, 28, 28), torch.randint(0, 10, (8,))
'''
CELL = '''
data, target = data.to(f"cuda:{rank}"), target.to(f"cuda:{rank}")
with torch.no_grad():
    output = model(data)
    loss = F.nll_loss(output, target, reduction="sum")
print(next(model.parameters()).device, output.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
