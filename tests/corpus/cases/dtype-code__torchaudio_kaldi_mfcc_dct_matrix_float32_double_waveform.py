"""torchaudio's Kaldi-compatible `mfcc` on a float64 waveform: its DCT matrix is built in float32.

Source: https://github.com/pytorch/audio/pull/681
While migrating the Kaldi MFCC tests (which feed float64 waveforms), the contributor hit
"Expected object of scalar type Double but got scalar type Float for argument #3 'mat2' in call
to _th_addmm_out". A maintainer (mthrok) pointed at `torchaudio.compliance.kaldi.mfcc`:
`dct_matrix = _get_dct_matrix(num_ceps, num_mel_bins)` is float32 whatever the waveform, and
patched it to `.to(dtype=dtype, device=device)` with `device, dtype = waveform.device,
waveform.dtype`. Stand-in: `mfcc` reduced to the log-mel features and the DCT step.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import math
import torch

def create_dct(n_mfcc, n_mels, norm="ortho"):
    n = torch.arange(float(n_mels))
    k = torch.arange(float(n_mfcc)).unsqueeze(1)
    dct = torch.cos(math.pi / float(n_mels) * (n + 0.5) * k)
    dct[0] *= 1.0 / math.sqrt(2.0)
    dct *= math.sqrt(2.0 / float(n_mels))
    return dct.t()

def _get_dct_matrix(num_ceps, num_mel_bins):
    # returns a dct matrix of size (num_mel_bins, num_ceps), float32
    dct_matrix = create_dct(num_mel_bins, num_mel_bins, "ortho")
    return dct_matrix[:, :num_ceps]

def fbank_features(waveform, num_mel_bins, frame_length=400, frame_shift=160):
    frames = waveform.unfold(-1, frame_length, frame_shift)              # (m, frame_length)
    power = torch.fft.rfft(frames).abs().pow(2)                          # (m, 201), waveform's dtype
    mel_banks = torch.rand(power.size(-1), num_mel_bins, dtype=waveform.dtype)
    return torch.log(power.matmul(mel_banks) + 1e-6)                      # (m, num_mel_bins)

def mfcc(waveform, num_ceps=13, num_mel_bins=23):
    """torchaudio.compliance.kaldi.mfcc (reduced)."""
    assert num_ceps <= num_mel_bins
    feature = fbank_features(waveform, num_mel_bins)
    # size (num_mel_bins, num_ceps)
    dct_matrix = _get_dct_matrix(num_ceps, num_mel_bins)
    # size (m, num_ceps)
    feature = feature.matmul(dct_matrix)
    return feature

waveform = torch.randn(16000, dtype=torch.float64)    # the test's waveform, in double
'''
CELL = '''
kaldi_output = mfcc(waveform, num_ceps=13, num_mel_bins=23)
'''
EXPECT_ERROR = ("expected m1 and m2 to have the same dtype", "expected scalar type Double but found Float")
CULPRITS = ["dct_matrix"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "dct_matrix = _get_dct_matrix(num_ceps, num_mel_bins)\n",
    "dct_matrix = _get_dct_matrix(num_ceps, num_mel_bins).to(dtype=waveform.dtype, device=waveform.device)\n",
)
CLEAN = False
