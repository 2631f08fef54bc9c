"""ComfyUI Audio Combine node: the resampled waveform's `.to("cpu")` is not assigned, so it stays on the GPU next to a CPU waveform.

Source: https://github.com/christian-byrne/audio-separation-nodes-comfyui/issues/23
Combining a voice track with background noise through the Audio Combine node failed with "Expected all
tensors to be on the same device, but found at least two devices, cuda:0 and cpu!". When the two
sample rates differ, `AudioCombine.main` resamples the lower-rate waveform on the torch device and then
calls `waveform_1.to("cpu")` without keeping the result. The maintainer's fix (PR #31):
`waveform_1 = waveform_1.to("cpu")` (and the same for `waveform_2`). Stand-ins: torchaudio's
`Resample` (kernel buffer, reduced apply that trims with `narrow`), `comfy.model_management` stub.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import torch

class _ModelManagement:                        # comfy.model_management (stub)
    @staticmethod
    def get_torch_device():
        return torch.device("cuda:0")
model_management = _ModelManagement()

class Resample(torch.nn.Module):
    """torchaudio.transforms.Resample (stand-in): a sinc-like kernel buffer and a strided conv."""
    def __init__(self, orig_freq, new_freq, lowpass_filter_width=6):
        super().__init__()
        self.gcd = math.gcd(int(orig_freq), int(new_freq))
        self.orig, self.new = int(orig_freq) // self.gcd, int(new_freq) // self.gcd
        self.width = lowpass_filter_width * self.orig
        idx = torch.arange(-self.width, self.width + self.orig, dtype=torch.float32) / self.orig
        t = torch.arange(0, -self.new, -1, dtype=torch.float32)[:, None, None] / self.new + idx
        kernel = torch.sinc(t) * torch.cos(t * math.pi / lowpass_filter_width / 2) ** 2
        self.register_buffer("kernel", kernel)

    def forward(self, waveform):
        shape = waveform.size()
        waveform = waveform.reshape(-1, shape[-1])
        num_wavs, length = waveform.shape
        waveform = torch.nn.functional.pad(waveform, (self.width, self.width + self.orig))
        resampled = torch.nn.functional.conv1d(waveform.unsqueeze(1), self.kernel, stride=self.orig)
        resampled = resampled.transpose(1, 2).reshape(num_wavs, -1)
        target_length = int(math.ceil(self.new * length / self.orig))
        resampled = resampled.narrow(-1, 0, target_length)
        return resampled.reshape(shape[:-1] + resampled.shape[-1:])

class AudioCombine:
    """src/combine.py: AudioCombine.main."""
    def main(self, audio_1, audio_2, method="add"):
        waveform_1 = audio_1["waveform"]
        input_sample_rate_1 = audio_1["sample_rate"]
        waveform_2 = audio_2["waveform"]
        input_sample_rate_2 = audio_2["sample_rate"]

        # Resample the audio if the sample rates are different
        if input_sample_rate_1 != input_sample_rate_2:
            device = model_management.get_torch_device()
            if input_sample_rate_1 < input_sample_rate_2:
                resample = Resample(input_sample_rate_1, input_sample_rate_2).to(device)
                waveform_1 = resample(waveform_1.to(device))
                waveform_1.to("cpu")
                output_sample_rate = input_sample_rate_2
            else:
                resample = Resample(input_sample_rate_2, input_sample_rate_1).to(device)
                waveform_2 = resample(waveform_2.to(device))
                waveform_2.to("cpu")
                output_sample_rate = input_sample_rate_1
        else:
            output_sample_rate = input_sample_rate_1

        if method == "add":
            waveform = waveform_1 + waveform_2
        elif method == "mean":
            waveform = (waveform_1 + waveform_2) / 2
        return ({"waveform": waveform, "sample_rate": output_sample_rate},)

voice = {"waveform": torch.randn(1, 1, 22050), "sample_rate": 22050}        # TTS output
noise = {"waveform": torch.randn(1, 1, 44100) * 0.05, "sample_rate": 44100}  # background noise
combine = AudioCombine()
'''
CELL = '''
(mixed,) = combine.main(voice, noise, method="add")
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["combine"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    '                waveform_1.to("cpu")',
    '                waveform_1 = waveform_1.to("cpu")',
)
CLEAN = False
