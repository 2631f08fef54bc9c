"""torchmetrics `FeatureShare([FID, KID]).to("cuda")`: the shared Inception network sits behind an `lru_cache` wrapper that `.to()` never moves.

Source: https://github.com/Lightning-AI/torchmetrics/issues/2339
"usage consistency on GPU between `MetricCollection` and `FeatureShare`": the same FID + KID pair
works as `MetricCollection([...]).to("cuda")` but `FeatureShare([...]).to("cuda")` fails on
`fs.update(img1, real=True)` with cuda images. The fix (PR #2348, "Cached network are not a proper
child module and is therefore currently not correctly moved to device") changes `NetworkCache`
from `self.network = lru_cache(...)(network)` (a plain function wrapper, invisible to
`Module.to()`) to keeping the module and caching only its `forward`. Stand-in: `NetworkCache` and
`FeatureShare.__init__` as in torchmetrics 1.3.0, a minimal `MetricCollection`, FID/KID update
paths, and a small conv network for `NoTrainInceptionV3`; the report's final `fs.compute()` is left
out (KID's random subsets index the features). On a GPU the first conv raises; in the simulator
the first mixed op is the batch norm after it.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
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
        self.network = lru_cache(maxsize=self.max_size)(network)

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
EXPECT_ERROR = ("Expected all tensors to be on the same device", "should be the same")
CULPRITS = ["fs"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        self.network = lru_cache(maxsize=self.max_size)(network)\n",
                  "        self.network = network\n        self.network.forward = lru_cache(maxsize=self.max_size)(network.forward)\n")
CLEAN = False
