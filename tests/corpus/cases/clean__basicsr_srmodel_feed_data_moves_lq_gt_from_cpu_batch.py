"""BasicSR SRModel: the dataloader batch (lq, gt, paths) stays on the CPU; `feed_data` copies lq/gt to the model's device.

Source: https://github.com/XPixelGroup/BasicSR/blob/master/basicsr/models/sr_model.py
BasicSR's training loop calls `model.feed_data(train_data)` with the CPU batch dict from the
paired-image dataloader (`lq`, `gt`, `lq_path`, `gt_path`); `feed_data` does `self.lq =
data['lq'].to(self.device)` and `self.gt = data['gt'].to(self.device)`, the pixel loss was built with
`.to(self.device)`, and `optimize_parameters` runs the generator, the loss, backward and the Adam
step on the device copies. Look-alike: a batch dict of CPU image tensors next to a GPU model,
optimizer and loss module, never used on the CPU. Stand-in: a small EDSR-style generator, the
L1Loss wrapper and the SRModel methods (logging/reduction left out); meta plays the GPU (backward).
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
from collections import OrderedDict
import torch
from torch import nn
import torch.nn.functional as F

class MSRResNetStub(nn.Module):
    def __init__(self, num_in_ch=3, num_out_ch=3, num_feat=16, upscale=2):
        super().__init__()
        self.conv_first = nn.Conv2d(num_in_ch, num_feat, 3, 1, 1)
        self.body = nn.Sequential(nn.Conv2d(num_feat, num_feat, 3, 1, 1), nn.ReLU(), nn.Conv2d(num_feat, num_feat, 3, 1, 1))
        self.upconv1 = nn.Conv2d(num_feat, num_feat * upscale * upscale, 3, 1, 1)
        self.pixel_shuffle = nn.PixelShuffle(upscale)
        self.conv_last = nn.Conv2d(num_feat, num_out_ch, 3, 1, 1)
        self.upscale = upscale

    def forward(self, x):
        feat = F.leaky_relu(self.conv_first(x), 0.1)
        out = feat + self.body(feat)
        out = F.leaky_relu(self.pixel_shuffle(self.upconv1(out)), 0.1)
        base = F.interpolate(x, scale_factor=self.upscale, mode='bilinear', align_corners=False)
        return self.conv_last(out) + base

class L1Loss(nn.Module):
    def __init__(self, loss_weight=1.0, reduction='mean'):
        super().__init__()
        self.loss_weight, self.reduction = loss_weight, reduction

    def forward(self, pred, target, weight=None, **kwargs):
        return self.loss_weight * F.l1_loss(pred, target, reduction=self.reduction)

class SRModel:
    def __init__(self, opt):
        self.opt = opt
        self.device = torch.device(opt['device'])
        self.optimizers = []
        self.net_g = MSRResNetStub(**opt['network_g']).to(self.device)
        self.net_g.train()
        train_opt = self.opt['train']
        self.cri_pix = L1Loss(**train_opt['pixel_opt']).to(self.device)
        self.cri_perceptual = None
        optim_params = [v for k, v in self.net_g.named_parameters() if v.requires_grad]
        self.optimizer_g = torch.optim.Adam(optim_params, **train_opt['optim_g'])
        self.optimizers.append(self.optimizer_g)

    def feed_data(self, data):
        self.lq = data['lq'].to(self.device)
        if 'gt' in data:
            self.gt = data['gt'].to(self.device)

    def optimize_parameters(self, current_iter):
        self.optimizer_g.zero_grad()
        self.output = self.net_g(self.lq)
        l_total = 0
        loss_dict = OrderedDict()
        if self.cri_pix:
            l_pix = self.cri_pix(self.output, self.gt)
            l_total += l_pix
            loss_dict['l_pix'] = l_pix
        l_total.backward()
        self.optimizer_g.step()
        self.log_dict = loss_dict

opt = {'device': 'meta', 'network_g': dict(num_in_ch=3, num_out_ch=3, num_feat=16, upscale=2),
       'train': dict(pixel_opt=dict(loss_weight=1.0, reduction='mean'),
                     optim_g=dict(lr=2e-4, weight_decay=0, betas=[0.9, 0.99]))}
model = SRModel(opt)
train_loader = [{'lq': torch.rand(4, 3, 24, 24), 'gt': torch.rand(4, 3, 48, 48),
                 'lq_path': [f'DIV2K/lq/{i:04d}x2.png' for i in range(4)],
                 'gt_path': [f'DIV2K/gt/{i:04d}.png' for i in range(4)]} for _ in range(2)]
'''
CELL = '''
current_iter = 0
for train_data in train_loader:
    current_iter += 1
    model.feed_data(train_data)
    model.optimize_parameters(current_iter)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
