"""torchmetrics FrechetInceptionDistance with a custom feature extractor on cuda: the probe `dummy_image` is a CPU uint8 tensor.

Source: https://github.com/Lightning-AI/torchmetrics/issues/2266
`FrechetInceptionDistance(torchvision.models.resnet50().to('cuda'))` fails in `__init__`: to find
the number of features, FID runs the extractor on a hard-coded
`dummy_image = torch.randint(0, 255, (1, 3, 299, 299), dtype=torch.uint8)`, which "will fail if the
custom extractor does not accept input with dtype=torch.uint8 ... and device does not match the
custom feature extractor". The reference fix is what the report points at: a probe made with the
extractor's dtype (float) and device. Stand-in: FID's constructor as in torchmetrics 1.2.1 on a minimal `Metric` base, and a
small ResNet-shaped network for `resnet50()`. On a GPU the first conv raises ("Input type ... and
weight type ... should be the same"); in the simulator the first mixed op is the batch norm after it.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
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
        if isinstance(feature, int):
            raise NotImplementedError("the default InceptionV3 needs torch-fidelity weights")
        elif isinstance(feature, Module):
            self.inception = feature
            dummy_image = torch.randint(0, 255, (1, 3, 299, 299), dtype=torch.uint8)
            num_features = self.inception(dummy_image).shape[-1]
        else:
            raise TypeError("Got unknown input to argument `feature`")
        self.reset_real_features = reset_real_features
        self.normalize = normalize
        mx_num_feats = (num_features, num_features)
        self.add_state("real_features_sum", torch.zeros(num_features).double(), dist_reduce_fx="sum")
        self.add_state("real_features_cov_sum", torch.zeros(mx_num_feats).double(), dist_reduce_fx="sum")
        self.add_state("real_features_num_samples", torch.tensor(0).long(), dist_reduce_fx="sum")
        self.add_state("fake_features_sum", torch.zeros(num_features).double(), dist_reduce_fx="sum")
        self.add_state("fake_features_cov_sum", torch.zeros(mx_num_feats).double(), dist_reduce_fx="sum")
        self.add_state("fake_features_num_samples", torch.tensor(0).long(), dist_reduce_fx="sum")

def resnet50(num_classes=1000):                  # stand-in for torchvision.models.resnet50
    return nn.Sequential(
        nn.Conv2d(3, 64, kernel_size=7, stride=2, padding=3, bias=False),
        nn.BatchNorm2d(64),
        nn.ReLU(inplace=True),
        nn.MaxPool2d(kernel_size=3, stride=2, padding=1),
        nn.Conv2d(64, 256, kernel_size=3, stride=2, padding=1, bias=False),
        nn.BatchNorm2d(256),
        nn.ReLU(inplace=True),
        nn.AdaptiveAvgPool2d((1, 1)),
        nn.Flatten(),
        nn.Linear(256, num_classes),
    ).eval()

model = resnet50().to("cuda:0")                  # torchvision.models.resnet50().to('cuda')
'''
CELL = '''
fid = FrechetInceptionDistance(model)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "should be the same")
CULPRITS = ["dummy_image"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("dummy_image = torch.randint(0, 255, (1, 3, 299, 299), dtype=torch.uint8)",
                  "dummy_image = torch.rand(1, 3, 299, 299, device=next(self.inception.parameters()).device)")
CLEAN = False
