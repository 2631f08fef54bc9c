"""torchmetrics `FeatureShare([FID, KID]).to(device)`: one Inception network shared through `NetworkCache`, whose `forward` is wrapped in an `lru_cache`, moves with the collection.

Source: https://github.com/Lightning-AI/torchmetrics/blob/master/src/torchmetrics/wrappers/feature_share.py
`NetworkCache.__init__` keeps the shared network as a registered submodule (`self.network =
network`) and caches only its bound `forward` (`self.network.forward = lru_cache(...)(network.forward)`);
`FeatureShare.__init__` then `setattr`s the same cache object into every metric. A function
wrapper around a module and one module object reachable from two metrics look like tensors that
`Module.to()` might miss, but the weights are registered once and move with `fs.to(...)`, and the
cached call returns features on the images' device. Stand-in: `NetworkCache`/`FeatureShare` as in
torchmetrics 1.3.1 on a minimal `MetricCollection`, FID/KID update paths, and a small conv network
for `NoTrainInceptionV3`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from functools import lru_cache
import torch
from torch import nn, Tensor
from torch.nn import Module

class Metric(nn.Module):                                  # stand-in for torchmetrics.Metric
    def add_state(self, name, default, dist_reduce_fx=None):
        if isinstance(default, list):
            setattr(self, name, default)
        else:
            self.register_buffer(name, default, persistent=False)

class MetricCollection(nn.ModuleDict):                    # stand-in for torchmetrics.MetricCollection
    def __init__(self, metrics, compute_groups=True):
        super().__init__()
        self.add_metrics(metrics)

    def add_metrics(self, metrics):
        for metric in metrics:
            self[metric.__class__.__name__] = metric

    def update(self, *args, **kwargs):
        for m in self.values():
            m.update(*args, **kwargs)

class NoTrainInceptionV3(nn.Module):                      # stand-in for the torch-fidelity InceptionV3
    def __init__(self, num_features=64):
        super().__init__()
        self.conv = nn.Conv2d(3, 32, kernel_size=3, stride=2, bias=False)
        self.bn = nn.BatchNorm2d(32, eps=0.001)
        self.pool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(32, num_features)
        self.eval()

    def forward(self, x):
        x = x.float() / 255.0
        x = torch.relu(self.bn(self.conv(x)))
        return self.fc(torch.flatten(self.pool(x), 1))

class FrechetInceptionDistance(Metric):
    feature_network: str = "inception"

    def __init__(self, feature=64, normalize=False):
        super().__init__()
        self.inception = NoTrainInceptionV3(num_features=feature)
        self.normalize = normalize
        self.add_state("real_features_sum", torch.zeros(feature).double(), dist_reduce_fx="sum")
        self.add_state("real_features_cov_sum", torch.zeros((feature, feature)).double(), dist_reduce_fx="sum")
        self.add_state("real_features_num_samples", torch.tensor(0).long(), dist_reduce_fx="sum")
        self.add_state("fake_features_sum", torch.zeros(feature).double(), dist_reduce_fx="sum")
        self.add_state("fake_features_cov_sum", torch.zeros((feature, feature)).double(), dist_reduce_fx="sum")
        self.add_state("fake_features_num_samples", torch.tensor(0).long(), dist_reduce_fx="sum")

    def update(self, imgs: Tensor, real: bool) -> None:
        imgs = (imgs * 255).byte() if self.normalize else imgs
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

class KernelInceptionDistance(Metric):
    feature_network: str = "inception"

    def __init__(self, feature=64, subsets=100, subset_size=1000, normalize=False):
        super().__init__()
        self.inception = NoTrainInceptionV3(num_features=feature)
        self.subsets, self.subset_size, self.normalize = subsets, subset_size, normalize
        self.add_state("real_features", [], dist_reduce_fx=None)
        self.add_state("fake_features", [], dist_reduce_fx=None)

    def update(self, imgs: Tensor, real: bool) -> None:
        imgs = (imgs * 255).byte() if self.normalize else imgs
        features = self.inception(imgs)
        if real:
            self.real_features.append(features)
        else:
            self.fake_features.append(features)

class NetworkCache(Module):
    def __init__(self, network: Module, max_size: int = 100) -> None:
        super().__init__()
        self.max_size = max_size
        self.network = network
        self.network.forward = lru_cache(maxsize=self.max_size)(network.forward)

    def forward(self, *args, **kwargs):
        return self.network(*args, **kwargs)

class FeatureShare(MetricCollection):
    def __init__(self, metrics, max_cache_size=None) -> None:
        super().__init__(metrics=metrics, compute_groups=False)
        if max_cache_size is None:
            max_cache_size = len(self)
        first_net = next(iter(self.values()))
        network_to_share = getattr(first_net, first_net.feature_network)
        cached_net = NetworkCache(network_to_share, max_size=max_cache_size)
        for metric_name, metric in self.items():
            setattr(metric, metric.feature_network, cached_net)

img1 = torch.randint(255, (50, 3, 64, 64), dtype=torch.uint8).to("cuda:0")
img2 = torch.randint(255, (50, 3, 64, 64), dtype=torch.uint8).to("cuda:0")

fs = FeatureShare([
    FrechetInceptionDistance(),
    KernelInceptionDistance(subset_size=10, subsets=2)
]).to("cuda:0")
'''
CELL = '''
fs.update(img1, real=True)
fs.update(img2, real=False)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
