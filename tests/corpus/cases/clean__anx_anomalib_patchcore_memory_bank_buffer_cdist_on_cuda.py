"""anomalib PatchCore: the coreset memory bank is a registered buffer, so the kNN search stays on the GPU.

Source: https://github.com/open-edge-platform/anomalib/blob/main/src/anomalib/models/image/patchcore/torch_model.py
Look-alike: `memory_bank` starts as an empty CPU tensor created in `__init__` and is later replaced by
the subsampled embedding; because it is a buffer it is moved by `model.to(device)` together with the
feature extractor, and `euclidean_dist` / `torch.topk` at inference run against cuda embeddings.
Stand-in: PatchCore with a tiny conv backbone, a random coreset and the nearest-neighbour score.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class PatchcoreModel(nn.Module):
    def __init__(self, num_neighbors=3):
        super().__init__()
        self.num_neighbors = num_neighbors
        self.feature_extractor = nn.Sequential(nn.Conv2d(3, 16, 3, stride=4, padding=1), nn.ReLU())
        self.feature_pooler = nn.AvgPool2d(3, 1, 1)
        self.register_buffer("memory_bank", torch.empty(0))

    @staticmethod
    def euclidean_dist(x, y):
        x_norm = x.pow(2).sum(dim=-1, keepdim=True)
        y_norm = y.pow(2).sum(dim=-1, keepdim=True)
        res = x_norm - 2 * torch.matmul(x, y.transpose(-2, -1)) + y_norm.transpose(-2, -1)
        return res.clamp_min_(0).sqrt_()

    def forward(self, input_tensor):
        embedding = self.feature_pooler(self.feature_extractor(input_tensor))
        b, c, h, w = embedding.shape
        embedding = embedding.permute(0, 2, 3, 1).reshape(-1, c)
        distances = self.euclidean_dist(embedding, self.memory_bank)
        patch_scores, _ = distances.topk(k=1, largest=False, dim=1)
        patch_scores = patch_scores.reshape(b, 1, h, w)
        anomaly_map = F.interpolate(patch_scores, size=input_tensor.shape[-2:], mode="bilinear")
        pred_score = torch.amax(patch_scores, dim=(-2, -1))
        return anomaly_map, pred_score

model = PatchcoreModel()
model.memory_bank = torch.randn(200, 16)       # subsample_embedding(...) result
model = model.to("cuda:0").eval()
image = torch.rand(2, 3, 64, 64).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    anomaly_map, pred_score = model(image)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
