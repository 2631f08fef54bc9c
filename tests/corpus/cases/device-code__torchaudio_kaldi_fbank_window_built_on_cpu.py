"""torchaudio's Kaldi-compatible `fbank` on a GPU waveform: the analysis window is built on the CPU.

Source: https://github.com/pytorch/audio/issues/310
"Problems when using GPU": "When I use kaldi compliance lib, I found that if the wave is in GPU,
much device mismatch exsits. For example, when I use fbank function, it will report Expected
object of backend CUDA but got backend CPU for argument #2 'other'. It is caused by the functions in
kaldi.py. Some newly constructed tensors are built on CPU." The first of them is the frame window:
`_feature_window_function` returns `torch.hann_window(window_size, periodic=False)` (and friends)
with no device, multiplied into the CUDA frames. The maintainers later threaded
`device`/`dtype` through `kaldi.py`. Stand-in: `fbank` reduced to framing, DC removal, windowing,
power spectrum and log mel energies.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import torch

def _feature_window_function(window_type, window_size, blackman_coeff):
    if window_type == "hanning":
        return torch.hann_window(window_size, periodic=False)
    elif window_type == "povey":
        return torch.hann_window(window_size, periodic=False).pow(0.85)
    raise Exception("Invalid window type " + window_type)

def fbank(waveform, frame_length=25.0, frame_shift=10.0, num_mel_bins=23,
          sample_frequency=16000.0, window_type="povey", blackman_coeff=0.42):
    """torchaudio.compliance.kaldi.fbank, torchaudio 0.3 (reduced)."""
    device = waveform.device
    window_shift = int(sample_frequency * frame_shift * 0.001)
    window_size = int(sample_frequency * frame_length * 0.001)
    padded_window_size = 2 ** math.ceil(math.log2(window_size))

    strided_input = waveform.unfold(-1, window_size, window_shift)     # (m, window_size)
    row_means = torch.mean(strided_input, dim=1).unsqueeze(1)           # remove DC offset
    strided_input = strided_input - row_means

    window_function = _feature_window_function(window_type, window_size, blackman_coeff).unsqueeze(0)
    strided_input = strided_input * window_function                     # (m, window_size)

    fft = torch.fft.rfft(strided_input, n=padded_window_size)
    power_spectrum = fft.abs().pow(2.0)                                  # (m, padded/2 + 1)
    mel_energies = torch.rand(num_mel_bins, power_spectrum.size(1), device=device)   # get_mel_banks
    return torch.mm(power_spectrum, mel_energies.t()).clamp(min=1e-10).log()

wave = torch.randn(1, 16000).to("cuda:0")       # the wave is on the GPU
'''
CELL = '''
feats = fbank(wave.squeeze(0), num_mel_bins=40)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["window_function"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "window_function = _feature_window_function(window_type, window_size, blackman_coeff).unsqueeze(0)",
    "window_function = _feature_window_function(window_type, window_size, blackman_coeff).unsqueeze(0).to(device)",
)
CLEAN = False
