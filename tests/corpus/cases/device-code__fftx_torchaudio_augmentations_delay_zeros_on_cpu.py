"""torchaudio-augmentations' `Delay` on a GPU waveform: the silent lead-in is `torch.zeros` made on the CPU.

Source: https://github.com/Spijkervet/torchaudio-augmentations/issues/8
"Delay augmentation on cuda": "the delay augmentation doesn't work on gpu since part of the signal is
on cpu. I think making the `beginning` tensor same as the `audio` tensor device should fix it",
pointing at `beginning = torch.zeros(audio.shape[0], offset)` in `Delay.forward`; the maintainer:
"We can also cast this tensor to the audio tensor's device" ("Fixed in f3e0ad8"). Stand-in: that
`Delay` module as in augmentations/delay.py; meta plays the GPU.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import random
import numpy as np
import torch

class Delay(torch.nn.Module):
    """Stand-in for torchaudio_augmentations.Delay (augmentations/delay.py)."""
    def __init__(self, sample_rate, volume_factor=0.5, min_delay=200, max_delay=500, delay_interval=50):
        super().__init__()
        self.sample_rate = sample_rate
        self.volume_factor = volume_factor
        self.min_delay = min_delay
        self.max_delay = max_delay
        self.delay_interval = delay_interval

    def calc_offset(self, ms):
        return int(ms * (self.sample_rate / 1000))

    def forward(self, audio):
        ms = random.choice(
            np.arange(self.min_delay, self.max_delay, self.delay_interval)
        )

        offset = self.calc_offset(ms)
        beginning = torch.zeros(audio.shape[0], offset)
        end = audio[:, :-offset]
        delayed_signal = torch.cat((beginning, end), dim=1)
        delayed_signal = delayed_signal * self.volume_factor
        audio = (audio + delayed_signal) / 2
        return audio

device = "meta"                                   # "cuda" in the report
sr = 22050
delay = Delay(sample_rate=sr)
audio = torch.randn(2, sr * 2).to(device)
'''
CELL = '''
delayed = delay(audio)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["delay"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "beginning = torch.zeros(audio.shape[0], offset)",
    "beginning = torch.zeros(audio.shape[0], offset, device=audio.device)",
)
CLEAN = False
