"""Look-alike: robomimic GaussianNoiseRandomizer after the fix samples its noise on the CPU and moves it to the input's device.

Source: https://github.com/ARISE-Initiative/robomimic/pull/124
"make gaussian randomizer use cuda": `GaussianNoiseRandomizer._forward_in` built its noise as
`torch.rand(size=out.shape) * self.noise_std + self.noise_mean + out`, a CPU tensor added to the
(GPU) observation batch when training on cuda; the reviewer asked to "detect what device the input
is on, and set the device for the noise appropriately". The merged code keeps
`torch.rand(size=out.shape)` (a CPU tensor) and adds `.to(inputs.device)` before mixing it with the
GPU batch: a CPU tensor created inside forward, moved at use. Nothing is misplaced. Stand-ins: the
Randomizer base and a low-dim obs encoder on cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class Randomizer(nn.Module):
    def forward_in(self, inputs):
        return self._forward_in(inputs) if self.training else inputs
    def forward_out(self, inputs):
        return self._forward_out(inputs) if self.training else inputs

class GaussianNoiseRandomizer(Randomizer):
    def __init__(self, input_shape, noise_mean=0.0, noise_std=0.3, limits=None, num_samples=1):
        super().__init__()
        self.input_shape = input_shape
        self.noise_mean, self.noise_std = noise_mean, noise_std
        self.limits, self.num_samples = limits, num_samples

    def _forward_in(self, inputs):
        out = inputs.repeat_interleave(self.num_samples, dim=0)
        # Sample noise across all samples
        out = torch.rand(size=out.shape).to(inputs.device) * self.noise_std + self.noise_mean + out
        if self.limits is not None:
            out = torch.clip(out, min=self.limits[0], max=self.limits[1])
        return out

    def _forward_out(self, inputs):
        batch_size = inputs.shape[0] // self.num_samples
        return inputs.reshape(batch_size, self.num_samples, *inputs.shape[1:]).mean(dim=1)

device = torch.device("cuda:0")
obs_net = nn.Sequential(nn.Linear(9, 256), nn.ReLU(), nn.Linear(256, 64)).to(device)
randomizer = GaussianNoiseRandomizer(input_shape=[9], noise_std=0.05, num_samples=2).to(device)
batch = {"obs": {"robot0_eef_pos": torch.randn(16, 3), "robot0_joint_pos": torch.randn(16, 6)}}
obs = torch.cat([v for v in batch["obs"].values()], dim=-1).to(device)
'''
CELL = '''
x = randomizer.forward_in(obs)
feat = randomizer.forward_out(obs_net(x))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
