"""Opacus DPOptimizer on an empty Poisson batch: the clip factor `torch.zeros((0,))` is created on the CPU.

Source: https://github.com/meta-pytorch/opacus/pull/631
Fix for meta-pytorch/opacus#612 (`optimizer.step()` -> "Expected all tensors to be on the same device,
but found at least two devices, cuda:0 and cpu! (when checking argument for argument mat2 in method
wrapper_CUDA_mm)"): "In case of an empty batch, in the `clip_and_accumulate` function, the
`per_sample_clip_factor` variable is set to a tensor of size 0. However, the device was not
specified". With Poisson sampling a batch can be empty; the per-sample gradients are then zero-size
tensors on the model's GPU and the einsum with the CPU clip factor fails. Stand-in: DPOptimizer
reduced to clip / accumulate / noise / step; the zero-size `grad_sample`s that GradSampleModule
leaves after an empty batch are set on the parameters directly.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

def _generate_noise(std, reference):
    return torch.normal(mean=0, std=std, size=reference.shape, device=reference.device)

class DPOptimizer:
    def __init__(self, optimizer, *, noise_multiplier, max_grad_norm, expected_batch_size):
        self.original_optimizer = optimizer
        self.noise_multiplier = noise_multiplier
        self.max_grad_norm = max_grad_norm
        self.expected_batch_size = expected_batch_size
        for p in self.params:
            p.summed_grad = None

    @property
    def params(self):
        return [p for group in self.original_optimizer.param_groups for p in group["params"] if p.requires_grad]

    @property
    def grad_samples(self):
        return [p.grad_sample for p in self.params]

    def clip_and_accumulate(self):
        if len(self.grad_samples[0]) == 0:
            # Empty batch
            per_sample_clip_factor = torch.zeros((0,))
        else:
            per_param_norms = [g.reshape(len(g), -1).norm(2, dim=-1) for g in self.grad_samples]
            per_sample_norms = torch.stack(per_param_norms, dim=1).norm(2, dim=1)
            per_sample_clip_factor = (self.max_grad_norm / (per_sample_norms + 1e-6)).clamp(max=1.0)
        for p in self.params:
            grad_sample = p.grad_sample
            grad = torch.einsum("i,i...", per_sample_clip_factor, grad_sample)
            p.summed_grad = grad if p.summed_grad is None else p.summed_grad + grad

    def add_noise(self):
        for p in self.params:
            noise = _generate_noise(std=self.noise_multiplier * self.max_grad_norm, reference=p.summed_grad)
            p.grad = (p.summed_grad + noise).view_as(p)

    def step(self):
        self.clip_and_accumulate()
        self.add_noise()
        for p in self.params:
            p.grad /= self.expected_batch_size
        return self.original_optimizer.step()

device = torch.device("cuda:0")
model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 2)).to(device)
optimizer = DPOptimizer(torch.optim.SGD(model.parameters(), lr=0.1),
                        noise_multiplier=1.0, max_grad_norm=1.0, expected_batch_size=4)
# an empty Poisson batch: GradSampleModule leaves zero-size per-sample gradients on every parameter
for p in model.parameters():
    p.grad_sample = torch.zeros((0,) + tuple(p.shape), device=p.device)
'''
CELL = '''
optimizer.step()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["optimizer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("per_sample_clip_factor = torch.zeros((0,))",
                  "per_sample_clip_factor = torch.zeros((0,), device=self.grad_samples[0].device)")
CLEAN = False
