"""SelfContact (SMPL-X self-contact loss): the loss is told `device='cuda'`, the SelfContact module with the essentials stays on the CPU.

Source: https://github.com/muelea/selfcontact/issues/5
"SelfContact - tensor issue (running on GPU)": `self_contact_module = SelfContact(essentials_folder=
essentials)`, `self_contact_loss = SelfContactLoss(self_contact_module, device='cuda')`,
`self_contact_loss(vertices.to(self_contact_loss.device))` failed in
`segment_hd_points` at `nzv = (exp1 == exp2).any(1).reshape(-1, 3).any(1)` with "Expected all
tensors to be on the same device, but found at least two devices, cuda:0 and cpu!". The reporter:
"this happens since the essentials are not loaded to self_contact_loss.device"; the maintainer: the
SelfContact module must still be transferred to the device itself. Stand-in: SelfContact with its
essentials as registered buffers (face indices, segment ids, geodesic mask), `segment_vertices`
and `segment_hd_points` reduced (the first essential used here is the geodesic mask), the loss keeping
the module as a plain attribute.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn

class SelfContact(nn.Module):
    def __init__(self, essentials_folder=None, geothres=0.3, euclthres=0.02, num_verts=400, num_faces=760):
        super().__init__()
        g = torch.Generator().manual_seed(0)
        self.geothres, self.euclthres = geothres, euclthres
        # loaded from essentials_folder in the repo (segments, geodesic distances, hd mappings)
        self.register_buffer("faces", torch.randint(0, num_verts, (num_faces, 3), generator=g))
        self.register_buffer("segments", torch.randint(0, 8, (num_verts,), generator=g))
        self.register_buffer("geomask", torch.rand(num_verts, num_verts, generator=g) > geothres)

    def segment_hd_points(self, vertices, v2v_min, incontact, exterior, test_segments=True):
        exp1 = self.segments.unsqueeze(0).expand(vertices.shape[0], -1)
        exp2 = incontact.long() * exp1
        nzv = (exp1 == exp2).any(1)
        return nzv

    def segment_vertices(self, vertices, compute_hd=False, test_segments=True):
        v2v = torch.cdist(vertices, vertices)
        v2v = v2v + 1e4 * (1.0 - self.geomask.float())
        v2v_min, _ = v2v.min(-1)
        incontact = v2v_min < self.euclthres
        exterior = torch.ones_like(incontact)
        nzv = self.segment_hd_points(vertices, v2v_min, incontact, exterior, test_segments)
        return v2v_min, incontact, exterior, nzv

class SelfContactLoss(nn.Module):
    def __init__(self, contact_module, device='cuda', inside_loss_weight=0.5, outside_loss_weight=0.0,
                 contact_loss_weight=0.5, test_segments=True):
        super().__init__()
        self.cm = contact_module
        self.device = device
        self.inside_w, self.contact_w = inside_loss_weight, contact_loss_weight
        self.test_segments = test_segments

    def forward(self, vertices):
        v2v_min, incontact, exterior, nzv = self.cm.segment_vertices(vertices, test_segments=self.test_segments)
        contactloss = self.contact_w * (v2v_min * incontact.float()).sum(-1)
        insideloss = self.inside_w * (v2v_min * (1.0 - exterior.float())).sum(-1)
        return contactloss.mean() + insideloss.mean()

essentials = "./selfcontact-essentials"
self_contact_module = SelfContact(essentials_folder=essentials)
self_contact_loss = SelfContactLoss(self_contact_module, device='cuda:0')
vertices = torch.randn(2, 400, 3) * 0.3                      # SMPL-X body vertices (downsampled)
'''
CELL = '''
loss = self_contact_loss(vertices.to(self_contact_loss.device))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["self_contact_module"]
FIX = "namespace"
REFERENCE_FIX = '''
self_contact_module.to(self_contact_loss.device)
'''
REFERENCE_EDIT = None
CLEAN = False
