"""torch-audiomentations BandPassFilter on CUDA audio: the bandwidth distribution lives on the CPU.

Source: https://github.com/iver56/torch-audiomentations/issues/137
"It happens in band_pass_filter.py: _bandwidth_dist_ is allocated on the CPU (ln 101-103) while
_center_dist_ (ln 96-98) is allocated on the GPU. I think that it can be solved by using the device
info of _selected_samples_ for _bandwidth_dist_." The maintainer patched it (PR #138).
Stand-in: the transform's `randomize_parameters` with the two `Uniform` distributions.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch.distributions import Uniform

class BandPassFilter(torch.nn.Module):
    def __init__(self, min_center_frequency=200.0, max_center_frequency=4000.0,
                 min_bandwidth_fraction=0.5, max_bandwidth_fraction=1.99):
        super().__init__()
        self.min_center_frequency, self.max_center_frequency = min_center_frequency, max_center_frequency
        self.min_bandwidth_fraction = min_bandwidth_fraction
        self.max_bandwidth_fraction = max_bandwidth_fraction
        self.transform_parameters = {}

    def randomize_parameters(self, selected_samples, sample_rate=16000):
        batch_size = selected_samples.shape[0]
        device = selected_samples.device
        center_dist = Uniform(
            low=torch.tensor(self.min_center_frequency, dtype=torch.float32, device=device),
            high=torch.tensor(self.max_center_frequency, dtype=torch.float32, device=device),
            validate_args=False)
        self.transform_parameters["center_freq"] = center_dist.sample(sample_shape=(batch_size,))
        bandwidth_dist = Uniform(
            low=torch.tensor(self.min_bandwidth_fraction, dtype=torch.float32),
            high=torch.tensor(self.max_bandwidth_fraction, dtype=torch.float32),
            validate_args=False)
        self.transform_parameters["bandwidth"] = (
            bandwidth_dist.sample(sample_shape=(batch_size,))
            * self.transform_parameters["center_freq"])

device = torch.device("cuda:0")
transform = BandPassFilter()
audio = torch.randn(8, 1, 16000).to(device)
'''
CELL = '''
transform.randomize_parameters(audio)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["transform"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""            low=torch.tensor(self.min_bandwidth_fraction, dtype=torch.float32),
            high=torch.tensor(self.max_bandwidth_fraction, dtype=torch.float32),""",
                  """            low=torch.tensor(self.min_bandwidth_fraction, dtype=torch.float32, device=device),
            high=torch.tensor(self.max_bandwidth_fraction, dtype=torch.float32, device=device),""")
CLEAN = False
