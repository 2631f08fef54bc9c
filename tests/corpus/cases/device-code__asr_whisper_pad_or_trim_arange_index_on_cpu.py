"""Whisper `pad_or_trim` on a GPU tensor: the `index_select` index is built with `torch.arange` on the CPU.

Source: https://github.com/openai/whisper/pull/305
"Fix bug: RuntimeError: Expected all tensors to be on the same device, but found at least two
devices, cuda:0 and cpu! (when checking argument for argument index in method
wrapper__index_select)". `whisper.audio.pad_or_trim` trimmed a torch tensor with
`array.index_select(dim=axis, index=torch.arange(length))`; the index had no device, so trimming a
CUDA waveform/mel longer than 30 s failed. The merged fix builds the index with
`torch.arange(length, device=array.device)`. Stand-in: `whisper/audio.py`'s `pad_or_trim` and
constants as of the report (numpy branch kept), the waveform random instead of `load_audio`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn.functional as F

SAMPLE_RATE = 16000
CHUNK_LENGTH = 30
N_SAMPLES = CHUNK_LENGTH * SAMPLE_RATE  # 480000: number of samples in a chunk

def pad_or_trim(array, length: int = N_SAMPLES, *, axis: int = -1):
    """
    Pad or trim the audio array to N_SAMPLES, as expected by the encoder.
    (stand-in of whisper.audio.pad_or_trim, whisper v20220922)
    """
    if torch.is_tensor(array):
        if array.shape[axis] > length:
            array = array.index_select(dim=axis, index=torch.arange(length))

        if array.shape[axis] < length:
            pad_widths = [(0, 0)] * array.ndim
            pad_widths[axis] = (0, length - array.shape[axis])
            array = F.pad(array, [pad for sizes in pad_widths[::-1] for pad in sizes])
    else:
        if array.shape[axis] > length:
            array = array.take(indices=range(length), axis=axis)

        if array.shape[axis] < length:
            pad_widths = [(0, 0)] * array.ndim
            pad_widths[axis] = (0, length - array.shape[axis])
            array = np.pad(array, pad_widths)

    return array

device = "cuda:0"
audio = torch.randn(N_SAMPLES + 5 * SAMPLE_RATE).to(device)   # a 35 s recording, already on the GPU
'''
CELL = '''
audio = pad_or_trim(audio)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["pad_or_trim"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "index=torch.arange(length))",
    "index=torch.arange(length, device=array.device))",
)
CLEAN = False
