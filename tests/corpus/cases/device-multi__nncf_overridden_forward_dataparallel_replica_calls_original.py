"""NNCF-style patched `model.forward` under DataParallel: the replica on cuda:1 runs the original module's forward (cuda:0 weights).

Source: https://github.com/openvinotoolkit/nncf/pull/3310
NNCF overrides a model's `forward` with an instance attribute. Its reproducer: `model.forward =
model.forward` then `torch.nn.DataParallel(model)(example_input)` raises "Expected all tensors to be on
the same device, but found at least two devices, cuda:1 and cuda:0!". DataParallel's `replicate`
makes each replica with `_replicate_for_data_parallel()`, a shallow copy of `__dict__`, so the bound
method stored in `model.__dict__['forward']` still points at the original module and its cuda:0
parameters. Stand-in: nn.DataParallel on GPUs 0 and 1 with scatter/replicate/apply/gather done by
hand the way torch does them (shallow `__dict__` copy, parameters and buffers copied to each GPU),
and a small CNN (BatchNorm where the mismatch surfaces).
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

class DataParallel(nn.DataParallel):
    # stand-in: nn.DataParallel on a machine with GPUs 0 and 1, torch's own forward; scatter,
    # replicate, parallel_apply and gather by hand (a CPU build has no NCCL). Replicas are made
    # like torch.nn.parallel.replicate: module._replicate_for_data_parallel() (a shallow copy of
    # __dict__), then parameters and buffers broadcast to each GPU.
    def __init__(self, module, device_ids=(0, 1)):
        nn.Module.__init__(self)
        self.module, self.dim = module, 0
        self.device_ids = list(device_ids)
        self.output_device = self.device_ids[0]
        self.src_device_obj = torch.device(f"cuda:{self.device_ids[0]}")

    def scatter(self, inputs, kwargs, device_ids):
        chunks = [t.chunk(len(device_ids)) for t in inputs]
        return (tuple(tuple(c[i].to(f"cuda:{d}") for c in chunks) for i, d in enumerate(device_ids)),
                tuple(kwargs for _ in device_ids))

    def replicate(self, module, device_ids):
        replicas = [module]
        for d in device_ids[1:]:
            copies = {}
            for m in module.modules():
                r = m._replicate_for_data_parallel()
                for k, p in m._parameters.items():
                    r._parameters[k] = None if p is None else p.detach().to(f"cuda:{d}")
                for k, b in m._buffers.items():
                    r._buffers[k] = None if b is None else b.to(f"cuda:{d}")
                copies[m] = r
            for m, r in copies.items():
                r._modules = {k: None if c is None else copies[c] for k, c in m._modules.items()}
            replicas.append(copies[module])
        return replicas

    def parallel_apply(self, replicas, inputs, kwargs):
        return [r(*i, **k) for r, i, k in zip(replicas, inputs, kwargs)]

    def gather(self, outputs, output_device):
        return torch.cat([o.to(f"cuda:{output_device}") for o in outputs], dim=self.dim)

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, padding=1)
        self.bn = nn.BatchNorm2d(4)
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        x = torch.relu(self.bn(self.conv(x)))
        return self.fc(x.mean(dim=(2, 3)))

model = Net().to("cuda:0").eval()
model.forward = model.forward          # what NNCF's wrapping does: forward becomes an instance attribute
parallel_model = DataParallel(model, device_ids=[0, 1])
example_input = torch.ones(10, 1, 3, 3).to("cuda:0")
'''
CELL = '''
out = parallel_model(example_input)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
del model.forward
'''
REFERENCE_EDIT = None
CLEAN = False
