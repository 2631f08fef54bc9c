"""Look-alike: torchmetrics FID accumulates float32 extractor features into float64 states, casting on purpose.

Source: https://github.com/Lightning-AI/torchmetrics (src/torchmetrics/image/fid.py)
`FrechetInceptionDistance` registers `real_features_sum`, `real_features_cov_sum`, ... with
`add_state(..., torch.zeros(num_features).double(), ...)`, and `update` does
`features = self.inception(imgs); self.orig_dtype = features.dtype; features = features.double()`
before `self.real_features_sum += features.sum(dim=0)` and
`self.real_features_cov_sum += features.t().mm(features)`. Float32 images and a float32 extractor
next to float64 states are intended, and `fid.to(device)` moves states and extractor together.
Stand-in: FID's constructor/update for a custom extractor that exposes `num_features`, on a minimal
`Metric` base whose states are buffers; `compute` is left out (it needs a matrix square root).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
from torch.nn import Module

class Metric(nn.Module):                          # stand-in for torchmetrics.Metric
    def add_state(self, name, default, dist_reduce_fx=None):
        self.register_buffer(name, default, persistent=False)

class FrechetInceptionDistance(Metric):
    def __init__(self, feature=2048, reset_real_features=True, normalize=False, **kwargs):
        super().__init__(**kwargs)
        self.used_custom_model = False
        if isinstance(feature, Module):
            self.inception = feature
            self.used_custom_model = True
            num_features = self.inception.num_features
        else:
            raise NotImplementedError("the default InceptionV3 needs torch-fidelity weights")
        self.reset_real_features = reset_real_features
        self.normalize = normalize
        mx_num_feats = (num_features, num_features)
        self.add_state("real_features_sum", torch.zeros(num_features).double(), dist_reduce_fx="sum")
        self.add_state("real_features_cov_sum", torch.zeros(mx_num_feats).double(), dist_reduce_fx="sum")
        self.add_state("real_features_num_samples", torch.tensor(0).long(), dist_reduce_fx="sum")
        self.add_state("fake_features_sum", torch.zeros(num_features).double(), dist_reduce_fx="sum")
        self.add_state("fake_features_cov_sum", torch.zeros(mx_num_feats).double(), dist_reduce_fx="sum")
        self.add_state("fake_features_num_samples", torch.tensor(0).long(), dist_reduce_fx="sum")

    def update(self, imgs, real):
        imgs = (imgs * 255).byte() if self.normalize and (not self.used_custom_model) else imgs
        features = self.inception(imgs)
        self.orig_dtype = features.dtype
        features = features.double()
        if features.dim() == 1:
            features = features.unsqueeze(0)
        if real:
            self.real_features_sum += features.sum(dim=0)
            self.real_features_cov_sum += features.t().mm(features)
            self.real_features_num_samples += imgs.shape[0]
        else:
            self.fake_features_sum += features.sum(dim=0)
            self.fake_features_cov_sum += features.t().mm(features)
            self.fake_features_num_samples += imgs.shape[0]

class FeatureNet(nn.Module):                      # the user's extractor
    num_features = 128
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 32, 3, stride=2, padding=1), nn.ReLU(),
                                  nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, self.num_features))
    def forward(self, x):
        return self.body(x)

fid = FrechetInceptionDistance(feature=FeatureNet().eval(), normalize=True).to("cuda:0")
real_imgs = torch.rand(8, 3, 64, 64, device="cuda:0")
fake_imgs = torch.rand(8, 3, 64, 64, device="cuda:0")
'''
CELL = '''
fid.update(real_imgs, real=True)
fid.update(fake_imgs, real=False)
mean_real = fid.real_features_sum / fid.real_features_num_samples
mean_fake = fid.fake_features_sum / fid.fake_features_num_samples
print(((mean_real - mean_fake) ** 2).sum().dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
