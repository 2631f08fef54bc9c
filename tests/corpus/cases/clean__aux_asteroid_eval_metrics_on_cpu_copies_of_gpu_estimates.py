"""Look-alike: asteroid's recipe `eval.py` runs the separator on the GPU and computes the BSS metrics on CPU copies.

Source: https://github.com/asteroid-team/asteroid/blob/master/egs/wham/ConvTasNet/eval.py
Each test utterance is moved with `tensors_to_device([mix, sources], device=model_device)`, separated,
reordered by `PITLossWrapper(pairwise_neg_sisdr, pit_from="pw_mtx")` on the device, and then
`mix_np = mix.cpu().data.numpy()`, `sources_np = sources.cpu()...`, `est_sources_np =
reordered_sources.squeeze(0).cpu()...` are handed to `get_metrics`, which works on the host. Metrics
on the CPU next to a CUDA model are deliberate. Stand-ins: a small separator, a two-source PIT
reorder (soft choice between the two permutations), and `get_metrics` computing SI-SDR with torch on
the CPU tensors instead of numpy.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def tensors_to_device(tensors, device):
    """asteroid.utils.tensors_to_device (list case)."""
    return [t.to(device) for t in tensors]

def pairwise_neg_sisdr(est_targets, targets, eps=1e-8):
    targets = targets - targets.mean(-1, keepdim=True)
    est_targets = est_targets - est_targets.mean(-1, keepdim=True)
    s_target = targets.unsqueeze(1)
    s_estimate = est_targets.unsqueeze(2)
    pair_wise_dot = (s_estimate * s_target).sum(-1, keepdim=True)
    s_target_energy = (s_target ** 2).sum(-1, keepdim=True) + eps
    pair_wise_proj = pair_wise_dot * s_target / s_target_energy
    e_noise = s_estimate - pair_wise_proj
    sdr = (pair_wise_proj ** 2).sum(-1) / ((e_noise ** 2).sum(-1) + eps)
    return -10 * torch.log10(sdr + eps)

class PITLossWrapper(nn.Module):
    """asteroid.losses.PITLossWrapper (2 sources, stand-in reorder)."""
    def __init__(self, loss_func, pit_from="pw_mtx"):
        super().__init__()
        self.loss_func = loss_func
    def forward(self, est_targets, targets, return_est=False):
        pw = self.loss_func(est_targets, targets)                    # (batch, n_src, n_src)
        keep = (pw[:, 0, 0] + pw[:, 1, 1]) / 2
        swap = (pw[:, 0, 1] + pw[:, 1, 0]) / 2
        w = torch.softmax(torch.stack([-keep, -swap], dim=-1) * 10, dim=-1)
        reordered = w[:, 0, None, None] * est_targets + w[:, 1, None, None] * est_targets.flip(1)
        loss = torch.minimum(keep, swap).mean()
        return (loss, reordered) if return_est else loss

def get_metrics(mix, clean, estimate, sample_rate=8000, metrics_list=("si_sdr",)):
    """asteroid.metrics.get_metrics (stand-in: SI-SDR on host tensors)."""
    sdr = -torch.diagonal(pairwise_neg_sisdr(estimate[None], clean[None])[0])
    sdr_in = -torch.diagonal(pairwise_neg_sisdr(mix.expand_as(clean)[None], clean[None])[0])
    return {"si_sdr": sdr.mean(), "input_si_sdr": sdr_in.mean()}

class ConvTasNet(nn.Module):
    def __init__(self, n_src=2, n_filters=32):
        super().__init__()
        self.n_src = n_src
        self.encoder = nn.Conv1d(1, n_filters, 16, stride=8, bias=False)
        self.masker = nn.Conv1d(n_filters, n_filters * n_src, 1)
        self.decoder = nn.ConvTranspose1d(n_filters, 1, 16, stride=8, bias=False)
    def forward(self, wav):                                          # (batch, time)
        tf_rep = torch.relu(self.encoder(wav.unsqueeze(1)))
        m = torch.sigmoid(self.masker(tf_rep)).view(wav.shape[0], self.n_src, -1, tf_rep.shape[-1])
        masked = (m * tf_rep.unsqueeze(1)).view(wav.shape[0] * self.n_src, -1, tf_rep.shape[-1])
        return self.decoder(masked).view(wav.shape[0], self.n_src, -1)

model = ConvTasNet()
model_device = torch.device("cuda:0")
model.to(model_device)
loss_func = PITLossWrapper(pairwise_neg_sisdr, pit_from="pw_mtx")
test_set = [(torch.randn(8000), torch.randn(2, 8000)) for _ in range(3)]   # WhamDataset items, CPU
'''
CELL = '''
series_list = []
with torch.no_grad():
    for idx in range(len(test_set)):
        mix, sources = tensors_to_device(test_set[idx], device=model_device)
        est_sources = model(mix.unsqueeze(0))
        loss, reordered_sources = loss_func(est_sources, sources[None], return_est=True)
        mix_np = mix.cpu()
        sources_np = sources.cpu()
        est_sources_np = reordered_sources.squeeze(0).cpu()
        utt_metrics = get_metrics(mix_np, sources_np, est_sources_np, sample_rate=8000)
        series_list.append(utt_metrics)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
