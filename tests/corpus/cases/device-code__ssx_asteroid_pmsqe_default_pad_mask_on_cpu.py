"""asteroid `SingleSrcPMSQE` loss on the GPU: without a `pad_mask`, the default all-ones mask is made on the CPU.

Source: https://github.com/asteroid-team/asteroid/pull/121
The PR fixes the PMSQE (perceptual PESQ-like) enhancement loss's device placement on CUDA: with no
`pad_mask` argument, `SingleSrcPMSQE.forward` "supposes no padding" and builds
`pad_mask = torch.ones(est_targets.shape[0], est_targets.shape[1], 1)` on the default device, then
`magnitude_at_sll` multiplies the CUDA spectra by it. The loss's own constants are `nn.Parameter`s,
so `.to(device)` on the loss does not help. PR #121 ("Fix PMSQE loss (NAN backward + device
placement)", merged) creates the mask with `device=est_targets.device` (its NaN changes are left out
here).
Stand-ins: `SingleSrcPMSQE` reduced to the SLL masking, a random Bark matrix and a loudness-style
distortion; a small masking model on power spectra.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class SingleSrcPMSQE(nn.Module):
    """asteroid.losses.SingleSrcPMSQE (reduced): inputs are (B, T, F) power spectra."""
    def __init__(self, window_name="sqrt_hann", window_weight=1.0, bark_eq=True, gain_eq=True,
                 sample_rate=16000, n_bark=49, n_freq=257):
        super().__init__()
        self.alpha, self.beta = 0.1, 0.309 * 0.1
        self.Sp = 6.910853e-006
        self.mask_sll = nn.Parameter(torch.ones(n_freq), requires_grad=False)
        self.bark_matrix = nn.Parameter(torch.rand(n_freq, n_bark), requires_grad=False)
        self.width_of_band_bark = nn.Parameter(torch.rand(n_bark), requires_grad=False)

    def forward(self, est_targets, targets, pad_mask=None):
        dims = [1, 2]
        if pad_mask is not None:
            pad_mask = pad_mask
        else:
            # Suppose no padding if no pad_mask is provided.
            pad_mask = torch.ones(est_targets.shape[0], est_targets.shape[1], 1)
        ref_spectra = self.magnitude_at_sll(targets, pad_mask)
        deg_spectra = self.magnitude_at_sll(est_targets, pad_mask)
        ref_bark = self.bark_computation(ref_spectra)
        deg_bark = self.bark_computation(deg_spectra)
        sym_d = (deg_bark.pow(0.23) - ref_bark.pow(0.23)).abs()
        wd_frame = torch.sum(torch.pow(sym_d * self.width_of_band_bark, 2.0), dim=-1, keepdim=True)
        pmsqe_frame = (self.alpha * wd_frame + self.beta * wd_frame.sqrt()) * pad_mask
        return torch.sum(pmsqe_frame, dim=dims) / pad_mask.sum(dims)

    def magnitude_at_sll(self, spectra, pad_mask):
        masked_spectra = spectra * pad_mask * self.mask_sll
        freq_mean_masked_spectra = torch.mean(masked_spectra, dim=-1, keepdim=True)
        sum_spectra = torch.sum(freq_mean_masked_spectra, dim=-2, keepdim=True)
        seq_len = torch.sum(pad_mask, dim=-2, keepdim=True)
        mean_pow = sum_spectra / seq_len
        return 10000000.0 * spectra / mean_pow

    def bark_computation(self, spectra):
        return self.Sp * torch.matmul(spectra, self.bark_matrix)

class Enhancer(nn.Module):
    def __init__(self, n_freq=257):
        super().__init__()
        self.mask = nn.Sequential(nn.Linear(n_freq, n_freq), nn.Sigmoid())

    def forward(self, noisy_pow):                      # (B, T, F)
        return noisy_pow * self.mask(noisy_pow.log1p())

device = torch.device("cuda:0")
model = Enhancer().to(device)
loss_func = SingleSrcPMSQE().to(device)
noisy_pow = torch.rand(8, 100, 257).to(device)         # |STFT|^2 of noisy / clean batches
clean_pow = torch.rand(8, 100, 257).to(device)
'''
CELL = '''
est_pow = model(noisy_pow)
loss = loss_func(est_pow, clean_pow).mean()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["loss_func"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("pad_mask = torch.ones(est_targets.shape[0], est_targets.shape[1], 1)",
                  "pad_mask = torch.ones(est_targets.shape[0], est_targets.shape[1], 1, device=est_targets.device)")
CLEAN = False
