"""torchaudio `functional.dither(..., noise_shaping=True)` on a GPU waveform: the error-offset `zeros` tensor is made on the CPU.

Source: https://github.com/pytorch/audio/issues/862
"dither with noise_shaping=True not working on cuda input": `F.dither(torch.randn(2, 441000).cuda())`
worked, but with `noise_shaping=True` it failed in `_add_noise_shaping`, where the one-sample
offset for the quantisation error is built as `zeros = torch.zeros(1, dtype=error.dtype)` without
the input's device and then concatenated with the GPU error row. The reporter pointed at that line;
the fix creates it with `device=error.device`. Stand-in: `dither` / `_add_noise_shaping` /
`_apply_probability_distribution` reduced from torchaudio 0.6 (TPDF only); meta plays the GPU.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch

def _apply_probability_distribution(waveform, density_function="TPDF"):
    """torchaudio.functional._apply_probability_distribution (TPDF only, reduced)."""
    shape = waveform.size()
    waveform = waveform.reshape(-1, shape[-1])
    down_bits, up_scaling = 16 - 1, 2 ** (16 - 1) - 1
    signal_scaled = waveform * up_scaling
    noise = torch.rand_like(signal_scaled) - torch.rand_like(signal_scaled)   # triangular
    quantised = torch.round(signal_scaled + noise)
    return (quantised / up_scaling).view(shape[:-1] + quantised.shape[-1:])

def _add_noise_shaping(dithered_waveform, waveform):
    """Noise shaping: noise_shaped_waveform[n] = dithered[n] + error[n-1]."""
    wf_shape = waveform.size()
    waveform = waveform.reshape(-1, wf_shape[-1])
    dithered_shape = dithered_waveform.size()
    dithered_waveform = dithered_waveform.reshape(-1, dithered_shape[-1])
    error = dithered_waveform - waveform
    # add error[n-1] to dithered_waveform[n], so offset the error by 1 index
    zeros = torch.zeros(1, dtype=error.dtype)
    for index in range(error.size()[0]):
        err = error[index]
        error_offset = torch.cat((zeros, err))
        error[index] = error_offset[:waveform.size()[1]]
    noise_shaped = dithered_waveform + error
    return noise_shaped.reshape(dithered_shape[:-1] + noise_shaped.shape[-1:])

def dither(waveform, density_function="TPDF", noise_shaping=False):
    """torchaudio.functional.dither (0.6)."""
    dithered = _apply_probability_distribution(waveform, density_function=density_function)
    if noise_shaping:
        return _add_noise_shaping(dithered, waveform)
    return dithered

waveform = torch.randn(2, 44100).to("meta")        # .cuda()
plain = dither(waveform)                            # works without noise shaping
'''
CELL = '''
shaped = dither(waveform, noise_shaping=True)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["zeros"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "zeros = torch.zeros(1, dtype=error.dtype)",
    "zeros = torch.zeros(1, dtype=error.dtype, device=error.device)",
)
CLEAN = False
