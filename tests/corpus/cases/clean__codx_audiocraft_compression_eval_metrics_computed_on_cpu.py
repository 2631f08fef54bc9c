"""Look-alike: audiocraft's CompressionSolver.evaluate runs the codec on the GPU and computes the reconstruction metrics on CPU copies.

Source: https://github.com/facebookresearch/audiocraft/blob/main/audiocraft/solvers/compression.py (`CompressionSolver.evaluate`, `evaluate_audio_reconstruction`)
Each evaluation batch comes from the loader on the CPU, is sent with `x = batch.to(self.device)`
through the compression model, and then both sides are brought back on purpose:
`y_pred = qres.x.cpu()` and `y = batch.cpu()  # should already be on CPU but just in case`, because the
metrics (SI-SNR, optionally ViSQOL) are computed by `evaluate_audio_reconstruction` in a spawned
process pool. The GPU model output meeting CPU reference audio is by design. Stand-ins: the EnCodec
compression model reduced to a conv encoder / residual VQ / transposed-conv decoder returning a
`QuantizedResult`, the pool replaced by in-process calls, `flashy.averager` by a plain running mean,
the SI-SNR loss as audiocraft computes it (zero-mean, projection, 10*log10 ratio).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class QuantizedResult:
    def __init__(self, x, codes, bandwidth, penalty=None, metrics=None):
        self.x, self.codes, self.bandwidth, self.penalty, self.metrics = x, codes, bandwidth, penalty, metrics or {}

class ResidualVectorQuantizer(nn.Module):
    def __init__(self, dim=32, n_q=4, bins=256):
        super().__init__()
        self.codebooks = nn.ModuleList([nn.Embedding(bins, dim) for _ in range(n_q)])

    def forward(self, z):
        residual, z_q, codes = z.transpose(1, 2), 0, []
        for cb in self.codebooks:
            w = cb.weight
            dist = residual.pow(2).sum(-1, keepdim=True) - 2 * residual @ w.t() + w.pow(2).sum(-1)
            idx = dist.argmin(-1)
            q = F.embedding(idx, w)
            z_q, residual = z_q + q, residual - q
            codes.append(idx)
        return z_q.transpose(1, 2), torch.stack(codes, 1)

class EncodecModel(nn.Module):
    def __init__(self, dim=32, hop=320):
        super().__init__()
        self.encoder = nn.Conv1d(1, dim, hop, stride=hop)
        self.quantizer = ResidualVectorQuantizer(dim)
        self.decoder = nn.ConvTranspose1d(dim, 1, hop, stride=hop)

    def forward(self, x):
        z_q, codes = self.quantizer(self.encoder(x))
        return QuantizedResult(self.decoder(z_q), codes, bandwidth=torch.tensor(6.0, device=x.device))

class SISNR(nn.Module):
    def __init__(self, epsilon=1e-8):
        super().__init__()
        self.eps = epsilon

    def forward(self, out_sig, ref_sig):
        ref_sig = ref_sig - ref_sig.mean(dim=-1, keepdim=True)
        out_sig = out_sig - out_sig.mean(dim=-1, keepdim=True)
        proj = (ref_sig * out_sig).sum(-1, keepdim=True) * ref_sig / (ref_sig.pow(2).sum(-1, keepdim=True) + self.eps)
        noise = out_sig - proj
        ratio = proj.pow(2).sum(-1) / (noise.pow(2).sum(-1) + self.eps)
        return -1 * (10 * torch.log10(ratio + self.eps)).mean()

def evaluate_audio_reconstruction(y_pred, y, cfg):
    """Audio reconstruction evaluation method that can be conveniently pickled."""
    metrics = {}
    sisnr = SISNR()
    metrics['sisnr'] = sisnr(y_pred, y)
    return metrics

class CompressionSolver:
    def __init__(self, model, dataloaders, device, cfg=None):
        self.model, self.dataloaders, self.device, self.cfg = model, dataloaders, device, cfg

    def evaluate(self):
        self.model.eval()
        loader = self.dataloaders['evaluate']
        totals, n = {}, 0
        pendings = []
        for idx, batch in enumerate(loader):
            x = batch.to(self.device)
            with torch.no_grad():
                qres = self.model(x)
            y_pred = qres.x.cpu()
            y = batch.cpu()  # should already be on CPU but just in case
            pendings.append(evaluate_audio_reconstruction(y_pred, y, self.cfg))   # pool.submit(...)
        for metrics in pendings:
            n += 1
            totals = {k: totals.get(k, 0) + v for k, v in metrics.items()}
        return {k: v / n for k, v in totals.items()}

device = "cuda:0"
model = EncodecModel().to(device)
loaders = {'evaluate': [torch.randn(4, 1, 3200) for _ in range(3)]}     # CPU audio batches
solver = CompressionSolver(model, loaders, device)
'''
CELL = '''
metrics = solver.evaluate()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
