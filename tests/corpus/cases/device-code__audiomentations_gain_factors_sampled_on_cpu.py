"""torch-audiomentations `Gain` on CUDA audio: the random gain factors are drawn on the CPU.

Source: https://github.com/iver56/torch-audiomentations/pull/18
Applying `Gain` to CUDA tensors raised "Expected all tensors to be on the same device, but found at
least two devices, cuda:0 and cpu!": `randomize_parameters` builds its Uniform distribution from
`torch.tensor(min_gain_in_db)` / `torch.tensor(max_gain_in_db)` without a device, so the sampled
factors are CPU tensors multiplied into the GPU batch. The PR creates them on the samples' device.
Stand-in: the transform's parameter sampling and apply step.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

def convert_decibels_to_amplitude_ratio(decibels):
    return 10 ** (decibels / 20)

class Gain(nn.Module):
    def __init__(self, min_gain_in_db=-18.0, max_gain_in_db=6.0):
        super().__init__()
        self.min_gain_in_db, self.max_gain_in_db = min_gain_in_db, max_gain_in_db
        self.transform_parameters = {}

    def randomize_parameters(self, samples):
        distribution = torch.distributions.Uniform(low=torch.tensor(self.min_gain_in_db, dtype=torch.float32), high=torch.tensor(self.max_gain_in_db, dtype=torch.float32), validate_args=False)
        selected_batch_size = samples.size(0)
        self.transform_parameters["gain_factors"] = convert_decibels_to_amplitude_ratio(
            distribution.sample(sample_shape=(selected_batch_size,))).view(-1, 1, 1)

    def forward(self, samples):
        self.randomize_parameters(samples)
        return samples * self.transform_parameters["gain_factors"]

apply_gain = Gain(min_gain_in_db=-15.0, max_gain_in_db=5.0)
audio_samples = torch.randn(4, 1, 16000).to("cuda:0")
'''
CELL = '''
perturbed_audio_samples = apply_gain(audio_samples)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["apply_gain"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "distribution = torch.distributions.Uniform(low=torch.tensor(self.min_gain_in_db, dtype=torch.float32), high=torch.tensor(self.max_gain_in_db, dtype=torch.float32), validate_args=False)",
    "distribution = torch.distributions.Uniform(low=torch.tensor(self.min_gain_in_db, dtype=torch.float32, device=samples.device), high=torch.tensor(self.max_gain_in_db, dtype=torch.float32, device=samples.device), validate_args=False)",
)
CLEAN = False
