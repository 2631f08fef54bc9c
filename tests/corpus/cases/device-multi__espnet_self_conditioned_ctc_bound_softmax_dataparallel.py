"""ESPnet self-conditioned CTC under DataParallel: the encoder keeps a bound `ctc.softmax`, so the cuda:1 replica calls cuda:0 weights.

Source: https://github.com/espnet/espnet/issues/4031
"Self-Conditioned CTC is Malformed for Multi-GPU Training": the conformer E2E model builds its
encoder with `ctc_softmax=self.ctc.softmax`. DataParallel replicates the modules onto each GPU, but a
replica's `encoder.ctc_softmax` is still the bound method of the original `ctc` on cuda:0, so the
replica on cuda:1 runs `ctc_lo` with cuda:0 weights ("Expected tensor for 'out' to have the same
device as tensor for argument #3 'mat2'; but device 1 does not equal 0"). The reporter's fix passes
`ctc_softmax=self.ctc.softmax` in `forward` instead (the reference edit re-binds it at the top of
`E2E.forward`, which is the same thing in one replacement). Stand-in: the E2E/encoder/CTC structure reduced,
and DataParallel's replicate/apply written out (it needs real GPUs).
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class CTC(nn.Module):
    def __init__(self, odim, eprojs):
        super().__init__()
        self.ctc_lo = nn.Linear(eprojs, odim)

    def softmax(self, hs_pad):
        return F.softmax(self.ctc_lo(hs_pad), dim=-1)

class Encoder(nn.Module):
    def __init__(self, idim, adim, odim, num_blocks=2, ctc_softmax=None):
        super().__init__()
        self.embed = nn.Linear(idim, adim)
        self.encoders = nn.ModuleList([nn.Linear(adim, adim) for _ in range(num_blocks)])
        self.ctc_softmax = ctc_softmax
        self.conditioning_layer = nn.Linear(odim, adim)

    def forward(self, xs):
        xs = self.embed(xs)
        intermediates = []
        for layer in self.encoders:
            xs = torch.relu(layer(xs))
            intermediates.append(xs)
            if self.ctc_softmax is not None:       # self-conditioning on the CTC posteriors
                xs = xs + self.conditioning_layer(self.ctc_softmax(xs))
        return xs, intermediates

class E2E(nn.Module):
    def __init__(self, idim=20, adim=32, odim=10, self_conditioning=True):
        super().__init__()
        self.ctc = CTC(odim, adim)
        self.encoder = Encoder(idim, adim, odim,
                               ctc_softmax=self.ctc.softmax if self_conditioning else None)

    def forward(self, xs_pad):
        hs_pad, hs_intermediates = self.encoder(xs_pad)
        return self.ctc.softmax(hs_pad)

def replicate(network, device):
    """torch.nn.parallel.replicate for one extra GPU (reduced): shallow module copies whose
    parameters are copies on `device`; every other attribute is shared with the original."""
    modules = list(network.modules())
    copies = {id(m): m._replicate_for_data_parallel() for m in modules}
    for m in modules:
        r = copies[id(m)]
        for name, child in m._modules.items():
            r._modules[name] = copies[id(child)]
        for name, p in m._parameters.items():
            r._parameters[name] = p.detach().to(device)
    return copies[id(network)]

def data_parallel(module, xs, device_ids=("cuda:0", "cuda:1")):
    """nn.DataParallel.forward: scatter the batch, run one replica per GPU, gather on cuda:0."""
    replicas = [module] + [replicate(module, d) for d in device_ids[1:]]
    chunks = xs.chunk(len(device_ids))
    outs = [r(c.to(d)) for r, c, d in zip(replicas, chunks, device_ids)]
    return torch.cat([o.to(device_ids[0]) for o in outs])

e2e = E2E().to("cuda:0")
xs_pad = torch.randn(4, 12, 20, device="cuda:0")
'''
CELL = '''
ys_hat = data_parallel(e2e, xs_pad)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["e2e.encoder.ctc_softmax"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        hs_pad, hs_intermediates = self.encoder(xs_pad)\n",
    "        self.encoder.ctc_softmax = self.ctc.softmax   # bind to this replica's ctc\n"
    "        hs_pad, hs_intermediates = self.encoder(xs_pad)\n",
)
CLEAN = False
