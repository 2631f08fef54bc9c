"""torch-audiomentations `AddBackgroundNoise` on GPU audio: the SNR `Uniform` distribution built in `__init__` samples on the CPU.

Source: https://github.com/iver56/torch-audiomentations/issues/70
"AddBackgroundNoise does not support CUDA": audio sent to cuda:2 and passed to the augmentation failed
with "Expected all tensors to be on the same device, but found at least two devices, cuda:2 and cpu!";
moving the augmentor to the GPU did not help. `__init__` keeps
`self.snr_distribution = torch.distributions.Uniform(low=min_snr_in_db, high=max_snr_in_db)` (CPU
tensors that `Module.to()` never sees), so `snr_in_db` is sampled on the CPU and divides the GPU RMS in
`apply_transform`. The maintainer's fix (PR #71) builds the distribution in `randomize_parameters` from
tensors on `selected_samples.device`. Stand-ins: `BaseWaveformTransform` (p=1, every example
selected), `Audio` returning random noise instead of reading files, `validate_args` left off.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import random
import torch

def calculate_rms(samples):
    """torch_audiomentations.utils.dsp.calculate_rms"""
    return torch.sqrt(torch.mean(torch.square(samples), dim=-1, keepdim=False))

class Audio:
    """torch_audiomentations.utils.io.Audio (stand-in: noise instead of the background files)."""
    def __init__(self, sample_rate, mono=True):
        self.sample_rate = sample_rate
    def get_num_samples(self, path):
        return 3 * self.sample_rate
    def __call__(self, path, sample_offset=0, num_samples=None):
        return torch.randn(1, num_samples if num_samples is not None else 3 * self.sample_rate)
    @staticmethod
    def rms_normalize(samples):
        return samples / calculate_rms(samples).unsqueeze(-1)

class BaseWaveformTransform(torch.nn.Module):
    """torch_audiomentations.core.transforms_interface (stand-in, p=1)."""
    def __init__(self, mode="per_example", p=1.0, p_mode=None, sample_rate=None):
        super().__init__()
        self.mode, self.p, self.sample_rate = mode, p, sample_rate
        self.transform_parameters = {}
    def forward(self, samples, sample_rate=None):
        sample_rate = sample_rate or self.sample_rate
        self.randomize_parameters(samples, sample_rate)
        return self.apply_transform(samples, sample_rate)

class AddBackgroundNoise(BaseWaveformTransform):
    supports_multichannel = True
    requires_sample_rate = True

    def __init__(self, background_paths, min_snr_in_db=3.0, max_snr_in_db=30.0,
                 mode="per_example", p=1.0, p_mode=None, sample_rate=None):
        super().__init__(mode, p, p_mode, sample_rate)
        self.background_paths = list(background_paths)
        if sample_rate is not None:
            self.audio = Audio(sample_rate=sample_rate, mono=True)
        self.min_snr_in_db = min_snr_in_db
        self.max_snr_in_db = max_snr_in_db
        if self.min_snr_in_db > self.max_snr_in_db:
            raise ValueError("min_snr_in_db must not be greater than max_snr_in_db")
        self.snr_distribution = torch.distributions.Uniform(
            low=min_snr_in_db, high=max_snr_in_db, validate_args=False
        )

    def random_background(self, audio, target_num_samples):
        pieces = []
        missing_num_samples = target_num_samples
        while missing_num_samples > 0:
            background_path = random.choice(self.background_paths)
            background_num_samples = audio.get_num_samples(background_path)
            if background_num_samples > missing_num_samples:
                sample_offset = random.randint(0, background_num_samples - missing_num_samples)
                background_samples = audio(background_path, sample_offset=sample_offset,
                                           num_samples=missing_num_samples)
                missing_num_samples = 0
            else:
                background_samples = audio(background_path)
                missing_num_samples -= background_num_samples
            pieces.append(background_samples)
        return audio.rms_normalize(torch.cat([audio.rms_normalize(piece) for piece in pieces], dim=1))

    def randomize_parameters(self, selected_samples, sample_rate=None):
        batch_size, _, num_samples = selected_samples.shape
        audio = self.audio if hasattr(self, "audio") else Audio(sample_rate, mono=True)
        self.transform_parameters["background"] = torch.stack(
            [self.random_background(audio, num_samples) for _ in range(batch_size)]
        )
        # (batch_size, ) SNRs
        self.transform_parameters["snr_in_db"] = self.snr_distribution.sample(
            sample_shape=(batch_size,)
        )

    def apply_transform(self, selected_samples, sample_rate=None):
        batch_size, num_channels, num_samples = selected_samples.shape
        background = self.transform_parameters["background"].to(selected_samples.device)
        background_rms = calculate_rms(selected_samples) / (
            10 ** (self.transform_parameters["snr_in_db"].unsqueeze(dim=-1) / 20)
        )
        return selected_samples + background_rms.unsqueeze(-1) * background.view(
            batch_size, 1, num_samples
        ).expand(-1, num_channels, -1)

augment = AddBackgroundNoise(["noises/cafe.wav", "noises/street.wav"], min_snr_in_db=3.0,
                             max_snr_in_db=30.0, p=1.0, sample_rate=16000)
augment = augment.to("cuda:2")              # "I also tried to send the augmentor itself to GPU"
audio = torch.randn(4, 1, 16000).to("cuda:2")
'''
CELL = '''
augmented = augment(audio, sample_rate=16000)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["augment"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """        self.transform_parameters["snr_in_db"] = self.snr_distribution.sample(
            sample_shape=(batch_size,)
        )""",
    """        snr_distribution = torch.distributions.Uniform(
            low=torch.tensor(self.min_snr_in_db, dtype=torch.float32, device=selected_samples.device),
            high=torch.tensor(self.max_snr_in_db, dtype=torch.float32, device=selected_samples.device),
            validate_args=False,
        )
        self.transform_parameters["snr_in_db"] = snr_distribution.sample(
            sample_shape=(batch_size,)
        )""",
)
CLEAN = False
