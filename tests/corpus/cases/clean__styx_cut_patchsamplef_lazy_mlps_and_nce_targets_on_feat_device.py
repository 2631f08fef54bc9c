"""Look-alike: CUT's `PatchSampleF` has no parameters when moved, builds its MLPs on the first call, and makes its patch ids on the feature device.

Source: https://github.com/taesungp/contrastive-unpaired-translation/blob/master/models/networks.py
`define_F` returns a `PatchSampleF` whose MLP heads do not exist yet, so `init_net`'s `.to(gpu_ids[0])`
moves nothing; `create_mlp` builds them on the first `forward` and calls `mlp.cuda()` there. Patch ids
come from `np.random.permutation` and are turned into `torch.tensor(patch_id, dtype=torch.long,
device=feat.device)`, and the key features' ids are reused for the query features. Nothing is left
behind. The generator encoder is a stand-in that returns the NCE layers' features; the weight init of
the new MLPs is left out (no in-place random init on the simulated GPU); `PatchNCELoss` is reduced to
its positive logits and the patch gather is written with `index_select` (the simulated GPU cannot run
`masked_fill_` with a Python scalar or tensor-index `__getitem__`).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
from types import SimpleNamespace

class Normalize(nn.Module):

    def __init__(self, power=2):
        super(Normalize, self).__init__()
        self.power = power

    def forward(self, x):
        norm = x.pow(self.power).sum(1, keepdim=True).pow(1. / self.power)
        out = x.div(norm + 1e-7)
        return out

class PatchSampleF(nn.Module):
    def __init__(self, use_mlp=False, init_type='normal', init_gain=0.02, nc=256, gpu_ids=[]):
        # potential issues: currently, we use the same patch_ids for multiple images in the batch
        super(PatchSampleF, self).__init__()
        self.l2norm = Normalize(2)
        self.use_mlp = use_mlp
        self.nc = nc  # hard-coded
        self.mlp_init = False
        self.init_type = init_type
        self.init_gain = init_gain
        self.gpu_ids = gpu_ids

    def create_mlp(self, feats):
        for mlp_id, feat in enumerate(feats):
            input_nc = feat.shape[1]
            mlp = nn.Sequential(*[nn.Linear(input_nc, self.nc), nn.ReLU(), nn.Linear(self.nc, self.nc)])
            if len(self.gpu_ids) > 0:
                mlp.to("cuda:%d" % self.gpu_ids[0])     # mlp.cuda()
            setattr(self, 'mlp_%d' % mlp_id, mlp)
        self.mlp_init = True

    def forward(self, feats, num_patches=64, patch_ids=None):
        return_ids = []
        return_feats = []
        if self.use_mlp and not self.mlp_init:
            self.create_mlp(feats)
        for feat_id, feat in enumerate(feats):
            B, H, W = feat.shape[0], feat.shape[2], feat.shape[3]
            feat_reshape = feat.permute(0, 2, 3, 1).flatten(1, 2)
            if num_patches > 0:
                if patch_ids is not None:
                    patch_id = patch_ids[feat_id]
                else:
                    patch_id = np.random.permutation(feat_reshape.shape[1])
                    patch_id = patch_id[:int(min(num_patches, patch_id.shape[0]))]  # .to(patch_ids.device)
                patch_id = torch.tensor(patch_id, dtype=torch.long, device=feat.device)
                x_sample = feat_reshape.index_select(1, patch_id).flatten(0, 1)  # feat_reshape[:, patch_id, :]
            else:
                x_sample = feat_reshape
                patch_id = []
            if self.use_mlp:
                mlp = getattr(self, 'mlp_%d' % feat_id)
                x_sample = mlp(x_sample)
            return_ids.append(patch_id)
            x_sample = self.l2norm(x_sample)
            return_feats.append(x_sample)
        return return_feats, return_ids

class ResnetGeneratorEncoder(nn.Module):
    """Stand-in for ResnetGenerator(..., encode_only=True): returns the features of the nce_layers."""
    def __init__(self):
        super().__init__()
        self.model = nn.ModuleList([nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(True),
                                    nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU(True)])

    def forward(self, input, layers=[], encode_only=False):
        feat = input
        feats = []
        for layer_id, layer in enumerate(self.model):
            if layer_id in layers:
                feats.append(feat)
            feat = layer(feat)
        feats.append(feat)
        return feats

opt = SimpleNamespace(gpu_ids=[0], num_patches=32, lambda_NCE=1.0, nce_T=0.07, batch_size=1, nce_layers='0,2')
device = torch.device('cuda:{}'.format(opt.gpu_ids[0]))
nce_layers = [int(i) for i in opt.nce_layers.split(',')]
netG = ResnetGeneratorEncoder().to(device)
netF = PatchSampleF(use_mlp=True, nc=64, gpu_ids=opt.gpu_ids).to(device)    # define_F -> init_net(.to(gpu_ids[0]))
real_A = torch.rand(1, 3, 16, 16).to(device) * 2 - 1
fake_B = torch.rand(1, 3, 16, 16).to(device) * 2 - 1
'''
CELL = '''
def calculate_NCE_loss(src, tgt):
    n_layers = len(nce_layers)
    feat_q = netG(tgt, nce_layers, encode_only=True)
    feat_k = netG(src, nce_layers, encode_only=True)
    feat_k_pool, sample_ids = netF(feat_k, opt.num_patches, None)
    feat_q_pool, _ = netF(feat_q, opt.num_patches, sample_ids)

    total_nce_loss = 0.0
    for f_q, f_k, nce_layer in zip(feat_q_pool, feat_k_pool, nce_layers):
        l_pos = (f_q * f_k.detach()).sum(dim=1) / opt.nce_T        # positive logits of PatchNCELoss
        loss = -l_pos * opt.lambda_NCE
        total_nce_loss += loss.mean()
    return total_nce_loss / n_layers

loss_NCE = calculate_NCE_loss(real_A, fake_B)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
