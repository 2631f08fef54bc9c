"""Look-alike: asteroid `separate` with a GPU model and a CPU waveform: it moves the input to the model's device and the estimates back.

Source: https://github.com/asteroid-team/asteroid/blob/master/asteroid/separate.py (`torch_separate`)
`model.separate(wav)` / `asteroid.separate.separate(model, wav)` takes the waveform where the user has
it (often straight from `soundfile` on the CPU): `torch_separate` reads `input_device` and
`model_device`, moves `wav` to the model, rescales the estimates, and returns them on the input's
device. A CUDA ConvTasNet next to a CPU waveform is the intended call. Stand-ins: `get_device`,
a small encoder/masker/decoder with `forward_wav`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def get_device(tensor_or_module, default=None):
    """asteroid.utils.torch_utils.get_device (reduced)."""
    if hasattr(tensor_or_module, "device"):
        return tensor_or_module.device
    elif hasattr(tensor_or_module, "parameters"):
        return next(tensor_or_module.parameters()).device
    return default

class ConvTasNet(nn.Module):
    """asteroid.models.ConvTasNet (stand-in) with in_channels and forward_wav."""
    in_channels = 1
    def __init__(self, n_src=2, n_filters=32, kernel_size=16, stride=8):
        super().__init__()
        self.n_src = n_src
        self.encoder = nn.Conv1d(1, n_filters, kernel_size, stride=stride, bias=False)
        self.masker = nn.Conv1d(n_filters, n_filters * n_src, 1)
        self.decoder = nn.ConvTranspose1d(n_filters, 1, kernel_size, stride=stride, bias=False)

    def forward(self, wav):
        tf_rep = torch.relu(self.encoder(wav))
        masks = torch.sigmoid(self.masker(tf_rep)).view(wav.shape[0], self.n_src, -1, tf_rep.shape[-1])
        masked = (masks * tf_rep.unsqueeze(1)).view(wav.shape[0] * self.n_src, -1, tf_rep.shape[-1])
        return self.decoder(masked).view(wav.shape[0], self.n_src, -1)

    def forward_wav(self, wav, **kwargs):
        return self(wav)

@torch.no_grad()
def torch_separate(model, wav, **kwargs):
    """Core logic of `separate`."""
    if model.in_channels is not None and wav.shape[-2] != model.in_channels:
        raise RuntimeError(f"Model supports {model.in_channels}-channel inputs")
    # Handle device placement
    input_device = get_device(wav, default="cpu")
    model_device = get_device(model, default="cpu")
    wav = wav.to(model_device)
    # Forward
    separate_func = getattr(model, "forward_wav", model)
    out_wavs = separate_func(wav, **kwargs)
    # FIXME: for now this is the best we can do.
    out_wavs *= wav.abs().sum() / (out_wavs.abs().sum())
    # Back to input device (and numpy if necessary)
    out_wavs = out_wavs.to(input_device)
    return out_wavs

model = ConvTasNet().to("cuda:0")                  # pretrained, moved to the GPU
mixture = torch.randn(1, 1, 8000)                  # sf.read(...) -> torch, on the CPU
'''
CELL = '''
est_sources = torch_separate(model, mixture)
first_speaker = est_sources[0, 0]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
