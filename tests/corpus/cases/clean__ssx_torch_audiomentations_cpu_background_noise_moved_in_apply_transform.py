"""torch-audiomentations `AddBackgroundNoise` on GPU audio: noise files are read to CPU tensors and moved in `apply_transform`.

Source: https://github.com/asteroid-team/torch-audiomentations/blob/main/torch_audiomentations/augmentations/background_noise.py
Making noisy mixtures for enhancement training: `randomize_parameters` stacks RMS-normalised
background clips read from disk (CPU tensors) into `transform_parameters["background"]`, and with a
fixed SNR builds `snr_in_db` with `torch.full(..., device=samples.device)`. `apply_transform` then
does `background = self.transform_parameters["background"].to(samples.device)` before mixing with the
CUDA batch. Look-alike: CPU noise stored on a module that is applied to CUDA samples; it runs.
Stand-ins: `BaseWaveformTransform` reduced to p=1 per-example; `random_background` returns
RMS-normalised random noise instead of decoding files; the output is a plain tensor, not an
`ObjectDict`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def calculate_rms(samples):
    return torch.sqrt(torch.mean(torch.square(samples), dim=-1, keepdim=False))

class AddBackgroundNoise(nn.Module):
    def __init__(self, background_paths, min_snr_in_db=3.0, max_snr_in_db=30.0, p=0.5,
                 sample_rate=None):
        super().__init__()
        self.background_paths = list(background_paths)
        self.min_snr_in_db, self.max_snr_in_db = min_snr_in_db, max_snr_in_db
        self.p, self.sample_rate = p, sample_rate
        self.transform_parameters = {}

    def random_background(self, target_num_samples):
        noise = torch.randn(1, target_num_samples)           # decoded file, on the CPU
        return noise / calculate_rms(noise).unsqueeze(-1)

    def randomize_parameters(self, samples, sample_rate=None):
        batch_size, _, num_samples = samples.shape
        self.transform_parameters["background"] = torch.stack(
            [self.random_background(num_samples) for _ in range(batch_size)]
        )
        if self.min_snr_in_db == self.max_snr_in_db:
            self.transform_parameters["snr_in_db"] = torch.full(
                size=(batch_size,), fill_value=self.min_snr_in_db,
                dtype=torch.float32, device=samples.device,
            )

    def apply_transform(self, samples, sample_rate=None):
        batch_size, num_channels, num_samples = samples.shape
        background = self.transform_parameters["background"].to(samples.device)
        background_rms = calculate_rms(samples) / (
            10 ** (self.transform_parameters["snr_in_db"].unsqueeze(dim=-1) / 20)
        )
        return samples + background_rms.unsqueeze(-1) * background.view(
            batch_size, 1, num_samples
        ).expand(-1, num_channels, -1)

    def forward(self, samples, sample_rate=None):
        self.randomize_parameters(samples, sample_rate)
        return self.apply_transform(samples, sample_rate)

device = torch.device("cuda:0")
add_noise = AddBackgroundNoise(["noise/cafe.wav", "noise/street.wav"], min_snr_in_db=5.0,
                               max_snr_in_db=5.0, p=1.0, sample_rate=16000)
clean = torch.randn(4, 1, 16000, device=device)
'''
CELL = '''
noisy = add_noise(clean, sample_rate=16000)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
