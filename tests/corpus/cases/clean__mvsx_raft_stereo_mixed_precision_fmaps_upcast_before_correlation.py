"""RAFT-Stereo with `--mixed_precision`: the encoders run under autocast and return low-precision features, which `forward` upcasts with `.float()` before building the correlation volume and the fp32 coordinate grids.

Source: https://github.com/princeton-vl/RAFT-Stereo/blob/main/core/raft_stereo.py
`RAFTStereo.forward` runs `cnet`/`fnet` inside `autocast(enabled=self.args.mixed_precision)`, so
`fmap1`, `fmap2` and the context come out in half precision; for the default
`corr_implementation == "reg"` it does `fmap1, fmap2 = fmap1.float(), fmap2.float()` before
`CorrBlock1D`, keeps `coords0`/`coords1` in float32, runs each GRU update under autocast again, and
adds the low-precision `delta_flow` to the fp32 `coords1` (type promotion keeps fp32). Look-alike:
tensors of two dtypes meeting on purpose, with the one explicit upcast where dtypes must agree.
Stand-ins: CPU autocast with bfloat16 for CUDA autocast with float16 (dtype-only case); the encoders
and the multi-level GRU cut to single convolutions; the correlation lookup reduced to the
`CorrBlock1D.corr` volume averaged over the right-image axis.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

def autocast(enabled):
    return torch.autocast("cpu", dtype=torch.bfloat16, enabled=enabled)   # torch.cuda.amp.autocast

def coords_grid(batch, ht, wd):
    coords = torch.meshgrid(torch.arange(ht), torch.arange(wd), indexing="ij")
    coords = torch.stack(coords[::-1], dim=0).float()
    return coords[None].repeat(batch, 1, 1, 1)

def corr_volume(fmap1, fmap2):                  # CorrBlock1D.corr
    B, D, H, W1 = fmap1.shape
    corr = torch.einsum('aijk,aijh->ajkh', fmap1, fmap2)
    return corr / torch.sqrt(torch.tensor(D).float())

class Args:
    mixed_precision = True
    corr_implementation = "reg"

class RAFTStereo(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.args = args
        self.cnet = nn.Conv2d(3, 32, 3, stride=4, padding=1)          # MultiBasicEncoder
        self.fnet = nn.Conv2d(3, 32, 3, stride=4, padding=1)          # BasicEncoder
        self.update_block = nn.Conv2d(32 + 1 + 2, 2, 3, padding=1)    # BasicMultiUpdateBlock

    def forward(self, image1, image2, iters=4, test_mode=False):
        image1 = (2 * (image1 / 255.0) - 1.0).contiguous()
        image2 = (2 * (image2 / 255.0) - 1.0).contiguous()

        with autocast(enabled=self.args.mixed_precision):
            net = torch.tanh(self.cnet(image1))
            fmap1, fmap2 = self.fnet(image1), self.fnet(image2)

        if self.args.corr_implementation == "reg": # Default
            fmap1, fmap2 = fmap1.float(), fmap2.float()
        corr = corr_volume(fmap1, fmap2).mean(-1).unsqueeze(1)       # [B, 1, H, W1]

        N, _, H, W = net.shape
        coords0 = coords_grid(N, H, W).to(net.device)
        coords1 = coords_grid(N, H, W).to(net.device)

        for itr in range(iters):
            coords1 = coords1.detach()
            flow = coords1 - coords0
            with autocast(enabled=self.args.mixed_precision):
                delta_flow = self.update_block(torch.cat([net, corr, flow], dim=1))
            delta_flow = delta_flow * torch.tensor([1.0, 0.0]).view(1, 2, 1, 1).to(delta_flow)  # delta_flow[:,1] = 0.0
            coords1 = coords1 + delta_flow
        return coords1 - coords0

model = RAFTStereo(Args())
model.eval()
image1 = torch.rand(1, 3, 64, 96) * 255
image2 = torch.rand(1, 3, 64, 96) * 255
'''
CELL = '''
with torch.no_grad():
    flow_low = model(image1, image2, iters=4, test_mode=True)
disparity = -flow_low[:, :1]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
