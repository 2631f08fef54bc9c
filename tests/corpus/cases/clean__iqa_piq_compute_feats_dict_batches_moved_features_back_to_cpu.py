"""Look-alike: piq's `compute_feats` moves the extractor and each `batch['images']` to the device, then returns CPU features and the extractor to the CPU.

Source: https://github.com/photosynthesis-team/piq (piq/base.py, `BaseFeatureMetric.compute_feats`)
`compute_feats(loader, feature_extractor, device='cuda')` does `feature_extractor.to(device)`,
`images = batch['images'].float().to(device)` for each dict batch, keeps
`features = features[0].view(N, -1).cpu()`, and finally `feature_extractor.cpu()`. The FID/KID
computation then runs on the CPU features. The loader's CPU tensors, CPU features and an extractor
moved back to the CPU are all intended. Stand-in: `BaseFeatureMetric` with `compute_feats` as in
piq, a `compute_metric` reduced to the squared distance of feature means, a small conv extractor
returning a one-element list, and lists of dict batches for the DataLoaders.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch

class BaseFeatureMetric(torch.nn.Module):
    def __init__(self):
        super(BaseFeatureMetric, self).__init__()

    def forward(self, x_features, y_features):
        return self.compute_metric(x_features, y_features)

    @torch.no_grad()
    def compute_feats(self, loader, feature_extractor=None, device='cuda:0'):
        assert isinstance(feature_extractor, torch.nn.Module), \\
            f"Feature extractor must be PyTorch module. Got {type(feature_extractor)}"
        feature_extractor.to(device)
        feature_extractor.eval()
        total_feats = []
        for batch in loader:
            images = batch['images']
            N = images.shape[0]
            images = images.float().to(device)
            # Get features
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
    def compute_metric(self, x_features, y_features):   # stand-in: mean term of the Frechet distance
        return ((x_features.mean(0) - y_features.mean(0)) ** 2).sum()

class Extractor(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Conv2d(3, 16, 3, stride=2, padding=1), torch.nn.ReLU(),
                                       torch.nn.AdaptiveAvgPool2d(1))
    def forward(self, x):
        return [self.net(x)]

first_dl = [{'images': torch.rand(4, 3, 32, 32)} for _ in range(3)]
second_dl = [{'images': torch.rand(4, 3, 32, 32)} for _ in range(3)]
extractor = Extractor()
fid_metric = FID()
'''
CELL = '''
first_feats = fid_metric.compute_feats(first_dl, feature_extractor=extractor, device='cuda:0')
second_feats = fid_metric.compute_feats(second_dl, feature_extractor=extractor, device='cuda:0')
fid = fid_metric(first_feats, second_feats)
print(fid.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
