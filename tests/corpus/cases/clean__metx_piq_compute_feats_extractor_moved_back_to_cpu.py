"""piq `BaseFeatureMetric.compute_feats`: the feature extractor is moved to the GPU for inference, features are copied to the CPU, and the extractor is sent back with `.cpu()`.

Source: https://github.com/photosynthesis-team/piq/blob/master/piq/base.py
`compute_feats(loader, feature_extractor, device)` does `feature_extractor.to(device)`, moves each
batch `images.float().to(device)`, keeps `features[0].view(N, -1).cpu()`, and after the loop calls
`feature_extractor.cpu()` and returns `torch.cat(total_feats)`. The user then scores the two CPU
feature sets with `FID()`. Look-alike: a model that ends on the CPU while the data were on cuda,
and CPU features next to a cuda run; every op pairs tensors on one device. Stand-in: piq's
`compute_feats` verbatim, a small conv network returning `[features]` for `InceptionV3`, loaders as
lists of `{"images": ...}` batches, and the mean/covariance step of piq's FID (its matrix square
root iterates on values).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class InceptionV3(nn.Module):                    # stand-in for piq.feature_extractors.InceptionV3
    def __init__(self, num_features=64):
        super().__init__()
        self.blocks = nn.Sequential(
            nn.Conv2d(3, 32, kernel_size=3, stride=2, bias=False),
            nn.BatchNorm2d(32, eps=0.001),
            nn.ReLU(inplace=True),
            nn.Conv2d(32, num_features, kernel_size=3, stride=2, bias=False),
            nn.BatchNorm2d(num_features, eps=0.001),
            nn.ReLU(inplace=True),
            nn.AdaptiveAvgPool2d(output_size=(1, 1)),
        )

    def forward(self, inp):
        return [self.blocks(inp)]

def _cov(m, rowvar=True):
    if m.dim() < 2:
        m = m.view(1, -1)
    if not rowvar and m.size(0) != 1:
        m = m.t()
    fact = 1.0 / (m.size(1) - 1)
    m = m - torch.mean(m, dim=1, keepdim=True)
    mt = m.t()
    return fact * m.matmul(mt).squeeze()

class BaseFeatureMetric(torch.nn.Module):
    def __init__(self) -> None:
        super(BaseFeatureMetric, self).__init__()

    @torch.no_grad()
    def compute_feats(self, loader, feature_extractor=None, device='cuda'):
        if feature_extractor is None:
            feature_extractor = InceptionV3()
        feature_extractor.to(device)
        feature_extractor.eval()

        total_feats = []
        for batch in loader:
            images = batch['images']
            N = images.shape[0]
            images = images.float().to(device)

            features = feature_extractor(images)
            assert len(features) == 1, \\
                f"feature_encoder must return list with features from one layer. Got {len(features)}"
            features = features[0].view(N, -1)
            features = features.cpu()
            total_feats.append(features)
            torch.cuda.empty_cache()

        feature_extractor.cpu()
        torch.cuda.empty_cache()
        return torch.cat(total_feats, dim=0)

class FID(BaseFeatureMetric):
    def compute_stats(self, features):
        mu = torch.mean(features, dim=0)
        sigma = _cov(features, rowvar=False)
        return mu, sigma

first_dl = [{"images": torch.rand(8, 3, 64, 64)} for _ in range(3)]
second_dl = [{"images": torch.rand(8, 3, 64, 64)} for _ in range(3)]
fid_metric = FID()
extractor = InceptionV3()
'''
CELL = '''
first_feats = fid_metric.compute_feats(first_dl, extractor, device="cuda:0")
second_feats = fid_metric.compute_feats(second_dl, extractor, device="cuda:0")
mu_x, sigma_x = fid_metric.compute_stats(first_feats)
mu_y, sigma_y = fid_metric.compute_stats(second_feats)
diff = (mu_x - mu_y).pow(2).sum() + torch.trace(sigma_x) + torch.trace(sigma_y)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
