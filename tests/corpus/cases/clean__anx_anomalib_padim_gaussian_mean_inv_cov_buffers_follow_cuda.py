"""anomalib PaDiM keeps the fitted Gaussian (mean, inverse covariance) and the channel index as buffers.

Source: https://github.com/open-edge-platform/anomalib/blob/main/src/anomalib/models/image/padim/torch_model.py
Look-alike: the model is built on the CPU, the statistics are created in `__init__` as empty CPU
tensors and later filled, and a random channel index `idx` is drawn with `torch.randperm` on the CPU;
all three are registered buffers (`MultiVariateGaussian.mean`/`inv_covariance`, `PadimModel.idx`), so
`model.to(device)` moves them and inference on cuda runs. Stand-in: PaDiM with a two-layer conv
backbone, MultiVariateGaussian and the Mahalanobis anomaly map.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class MultiVariateGaussian(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("mean", torch.empty(0))
        self.register_buffer("inv_covariance", torch.empty(0))

class PadimModel(nn.Module):
    def __init__(self, n_features=6):
        super().__init__()
        self.layer1 = nn.Sequential(nn.Conv2d(3, 4, 3, stride=2, padding=1), nn.ReLU())
        self.layer2 = nn.Sequential(nn.Conv2d(4, 8, 3, stride=2, padding=1), nn.ReLU())
        self.register_buffer("idx", torch.randperm(12)[:n_features])
        self.gaussian = MultiVariateGaussian()

    def generate_embedding(self, x):
        f1 = self.layer1(x)
        f2 = self.layer2(f1)
        emb = torch.cat([f1, F.interpolate(f2, size=f1.shape[-2:], mode="nearest")], dim=1)
        return torch.index_select(emb, 1, self.idx)

    def forward(self, x):
        embedding = self.generate_embedding(x)
        b, c, h, w = embedding.shape
        embedding = embedding.reshape(b, c, h * w)
        delta = (embedding - self.gaussian.mean).permute(2, 0, 1)
        distances = (torch.matmul(delta, self.gaussian.inv_covariance) * delta).sum(2).permute(1, 0)
        distances = distances.reshape(b, 1, h, w).clamp(0).sqrt()
        return F.interpolate(distances, size=x.shape[-2:], mode="bilinear", align_corners=False)

model = PadimModel()
n_features, n_patches = 6, 256
model.gaussian.mean = torch.zeros(n_features, n_patches)
model.gaussian.inv_covariance = torch.eye(n_features).repeat(n_patches, 1, 1)
model = model.to("cuda:0").eval()
images = torch.rand(2, 3, 32, 32).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    anomaly_map = model(images)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
