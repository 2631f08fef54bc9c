"""Look-alike: Opacus DPOptimizer clipping per-sample gradients of a model split over two GPUs.

Source: https://github.com/meta-pytorch/opacus/blob/main/opacus/optimizers/optimizer.py
`clip_and_accumulate` computes one norm per parameter on that parameter's device, moves the norms to
the first one's device (`norm.to(target_device)`) before stacking them, and moves the clip factors
back to each parameter's device (`per_sample_clip_factor.to(grad_sample.device)`) before the einsum;
`_generate_noise` draws the noise on `reference.device`. With a model whose two halves live on
cuda:0 and cuda:1 this runs. Stand-in: DPOptimizer reduced to clip / accumulate / noise / step, the
per-sample gradients that GradSampleModule's hooks would store are set on each parameter directly.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def _generate_noise(std, reference, generator=None):
    return torch.normal(mean=0, std=std, size=reference.shape, device=reference.device,
                        generator=generator, dtype=reference.dtype)

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
        grad_samples = self.grad_samples
        per_param_norms = [g.reshape(len(g), -1).norm(2, dim=-1) for g in grad_samples]
        target_device = per_param_norms[0].device
        per_param_norms = [norm.to(target_device) for norm in per_param_norms]
        per_sample_norms = torch.stack(per_param_norms, dim=1).norm(2, dim=1)
        per_sample_clip_factor = (self.max_grad_norm / (per_sample_norms + 1e-6)).clamp(max=1.0)
        for p in self.params:
            grad_sample = p.grad_sample.to(p.dtype)
            clip_factor_on_device = per_sample_clip_factor.to(grad_sample.device).to(p.dtype)
            grad = torch.einsum("i,i...", clip_factor_on_device, grad_sample)
            p.summed_grad = grad if p.summed_grad is None else p.summed_grad + grad

    def add_noise(self):
        for p in self.params:
            noise = _generate_noise(std=self.noise_multiplier * self.max_grad_norm, reference=p.summed_grad)
            p.grad = (p.summed_grad + noise).view_as(p)

    def scale_grad(self):
        for p in self.params:
            p.grad /= self.expected_batch_size

    def step(self):
        self.clip_and_accumulate()
        self.add_noise()
        self.scale_grad()
        return self.original_optimizer.step()

class TwoGPUNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.part1 = nn.Linear(16, 32).to("cuda:0")
        self.part2 = nn.Linear(32, 4).to("cuda:1")

    def forward(self, x):
        h = torch.relu(self.part1(x.to("cuda:0")))
        return self.part2(h.to("cuda:1"))

model = TwoGPUNet()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
dp_optimizer = DPOptimizer(optimizer, noise_multiplier=1.1, max_grad_norm=1.0, expected_batch_size=8)
# what GradSampleModule's backward hooks leave on every parameter after loss.backward()
for p in model.parameters():
    p.grad_sample = torch.randn((8,) + tuple(p.shape), device=p.device)
'''
CELL = '''
dp_optimizer.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
