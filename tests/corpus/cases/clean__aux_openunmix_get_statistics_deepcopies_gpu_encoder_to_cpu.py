"""Look-alike: open-unmix training computes the dataset scaler with a CPU deep copy of the GPU encoder.

Source: https://github.com/sigsep/open-unmix-pytorch/blob/master/scripts/train.py (`get_statistics`)
`train.py` builds `encoder = torch.nn.Sequential(stft, model.ComplexNorm(mono=...)).to(device)` for
the training loop, then calls `get_statistics(args, encoder, train_dataset)`, which starts with
`encoder = copy.deepcopy(encoder).to("cpu")` and feeds it the dataset's CPU tracks one by one; the
GPU encoder in the namespace is left where it is. Stand-ins: `TorchSTFT` (window as a frozen
Parameter) and `ComplexNorm` reduced, a list dataset, and a running mean/std in torch for the
sklearn `StandardScaler`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import copy
import torch
from torch import nn

class TorchSTFT(nn.Module):
    """openunmix.transforms.TorchSTFT (reduced)."""
    def __init__(self, n_fft=256, n_hop=64):
        super().__init__()
        self.window = nn.Parameter(torch.hann_window(n_fft), requires_grad=False)
        self.n_fft, self.n_hop = n_fft, n_hop
    def forward(self, x):                                   # (samples, channels, time)
        shape = x.size()
        x = x.reshape(-1, shape[-1])
        complex_stft = torch.stft(x, n_fft=self.n_fft, hop_length=self.n_hop, window=self.window,
                                  center=True, normalized=False, onesided=True, pad_mode="reflect",
                                  return_complex=True)
        stft_f = torch.view_as_real(complex_stft)
        return stft_f.view(shape[:-1] + stft_f.shape[-3:])

class ComplexNorm(nn.Module):
    def __init__(self, mono=False):
        super().__init__()
        self.mono = mono
    def forward(self, spec):
        spec = spec.pow(2).sum(-1).sqrt()
        return torch.mean(spec, 1, keepdim=True) if self.mono else spec

def get_statistics(args, encoder, dataset):
    encoder = copy.deepcopy(encoder).to("cpu")
    n, mean, sq = 0, 0.0, 0.0                              # sklearn StandardScaler (stand-in)
    for ind in range(len(dataset)):
        x, y = dataset[ind]
        # downmix to mono channel
        X = encoder(x[None, ...]).mean(1, keepdim=False).permute(0, 2, 1)
        X = X.reshape(-1, X.shape[-1])
        n, mean, sq = n + X.shape[0], mean + X.sum(0), sq + (X ** 2).sum(0)
    mean = mean / n
    std = (sq / n - mean ** 2).clamp_min(0).sqrt()
    return mean, torch.maximum(std, 1e-4 * std.max())

device = torch.device("cuda:0")
stft = TorchSTFT()
encoder = torch.nn.Sequential(stft, ComplexNorm(mono=False)).to(device)
train_dataset = [(torch.randn(2, 4096), torch.randn(2, 4096)) for _ in range(3)]   # musdb tracks, CPU
args = None
'''
CELL = '''
scaler_mean, scaler_std = get_statistics(args, encoder, train_dataset)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
