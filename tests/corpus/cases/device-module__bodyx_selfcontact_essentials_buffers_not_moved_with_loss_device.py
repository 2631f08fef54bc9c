"""SelfContact on the GPU: `SelfContactLoss(..., device='cuda')` gets GPU vertices but the `SelfContact` module's essentials stay on the CPU.

Source: https://github.com/muelea/selfcontact/issues/5
The user ran `self_contact_module = SelfContact(essentials_folder=essentials)`,
`self_contact_loss = SelfContactLoss(self_contact_module, device='cuda')` and
`self_contact_loss(vertices.to(self_contact_loss.device))`; it failed in `segment_hd_points` at
`nzv = (exp1 == exp2).any(1)...` with cuda:0 and cpu. The essentials loaded by SelfContact
(geodesic distances, the HD-point faces/vertex maps) were never moved to the device; the maintainer's
answer is to transfer the SelfContact module to the device too. Stand-in: SelfContact with a few
registered essentials and a reduced `segment_vertices`; SelfContactLoss only stores `device`.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class SelfContact(nn.Module):
    def __init__(self, essentials_folder=None, geothres=0.3, euclthres=0.02, num_verts=120):
        super().__init__()
        self.geothres = geothres
        self.euclthres = euclthres
        g = torch.Generator().manual_seed(0)
        self.register_buffer('geodesicdists', torch.rand(num_verts, num_verts, generator=g))
        self.register_buffer('geopenalty', (self.geodesicdists <= geothres).float() * 1e4)
        self.register_buffer('hd_faces', torch.randint(0, num_verts, (60, 3), generator=g))

    def segment_hd_points(self, vertices, v2v_min, incontact):
        exp1 = incontact.unsqueeze(2).expand(-1, -1, 3)
        exp2 = self.hd_faces.unsqueeze(0).lt(vertices.shape[1] // 2).expand(vertices.shape[0], -1, -1)
        nzv = (exp1[:, :exp2.shape[1]] == exp2).any(1)
        return nzv

    def segment_vertices(self, vertices):
        v2v = torch.cdist(vertices, vertices)
        v2v = v2v + self.geopenalty               # only geodesically far pairs can be in contact
        v2v_min = v2v.min(dim=-1).values
        incontact = v2v_min < self.euclthres
        return v2v_min, incontact, self.segment_hd_points(vertices, v2v_min, incontact)

class SelfContactLoss(nn.Module):
    def __init__(self, contact_module, device='cuda'):
        super().__init__()
        self.cm = contact_module
        self.device = device

    def forward(self, vertices):
        v2v_min, incontact, hd = self.cm.segment_vertices(vertices)
        return (v2v_min * incontact).sum()

essentials = 'selfcontact-essentials'
self_contact_module = SelfContact(essentials_folder=essentials)
self_contact_loss = SelfContactLoss(self_contact_module, device='cuda:0')
vertices = torch.randn(2, 120, 3)
'''
CELL = '''
with torch.no_grad():
    loss = self_contact_loss(vertices.to(self_contact_loss.device))
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device",
                "found two different devices",
                "Unhandled FakeTensor Device Propagation")
CULPRITS = ["self_contact_module"]
FIX = "namespace"
REFERENCE_FIX = '''
self_contact_module = self_contact_module.to(self_contact_loss.device)
'''
REFERENCE_EDIT = None
CLEAN = False
