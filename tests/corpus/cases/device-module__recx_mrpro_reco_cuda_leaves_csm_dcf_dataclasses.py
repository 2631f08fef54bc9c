"""mrpro direct reconstruction moved with `reco.cuda()`: the `csm` and `dcf` dataclasses it holds stay on the CPU.

Source: https://github.com/PTB-MR/mrpro/pull/968
"Fix Reconstructions on cuda": `reco.cuda()` would not move the dcf/csm of the plug-and-play
reconstructions, so applying it to cuda k-space fails. The reconstruction is an nn.Module but keeps
`CsmData` / `DcfData` dataclasses (tensor inside `.data`), which `Module.to()` never visits; the PR
stores them as operators (`csm_op`, `dcf_op`) instead. Stand-in: a reduced DirectReconstruction
(density compensation, adjoint FFT, coil combination) with the two dataclasses as attributes.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
from dataclasses import dataclass
import torch

@dataclass
class CsmData:
    data: torch.Tensor          # (coils, y, x) complex

@dataclass
class DcfData:
    data: torch.Tensor          # (k1, k0) real

class DirectReconstruction(torch.nn.Module):
    def __init__(self, csm, dcf):
        super().__init__()
        self.csm = csm
        self.dcf = dcf

    def forward(self, kdata):
        k = kdata * self.dcf.data
        img = torch.fft.ifft2(k, norm="ortho")
        return (img * self.csm.data.conj()).sum(0)

coils, ny, nx = 4, 32, 32
csm = CsmData(torch.randn(coils, ny, nx, dtype=torch.complex64))
dcf = DcfData(torch.rand(ny, nx))
reco = DirectReconstruction(csm, dcf).to("cuda:0")   # the user: reco.cuda()
kdata = torch.randn(coils, ny, nx, dtype=torch.complex64).to("cuda:0")
'''
CELL = '''
img = reco(kdata)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["reco.dcf", "reco.csm"]
FIX = "namespace"
REFERENCE_FIX = '''
reco.csm.data = reco.csm.data.to("cuda:0")
reco.dcf.data = reco.dcf.data.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
