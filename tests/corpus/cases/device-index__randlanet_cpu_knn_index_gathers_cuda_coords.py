"""RandLA-Net (PyTorch) on the GPU: the KNN runs on CPU copies, so its neighbour indices gather from CUDA coordinates.

Source: https://github.com/aRI0U/RandLA-Net-pytorch/pull/29
"fixed bug: features and indexes on different devices when using cuda": with the 'gather' version of
`LocalSpatialEncoding`, training on cuda raised "Expected all tensors to be on the same device, but
found at least two devices, cuda:0 and cpu! (when checking argument for argument index in method
wrapper_gather)". `RandLANet.forward` computes `knn(coords.cpu(), coords.cpu(), k)`, so `idx` and
`dist` come back on the CPU while `coords` is on cuda; the PR moves the expanded indices to the
features' device. Stand-in: the model reduced to one encoding step, KNN with cdist/topk.
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import torch
from torch import nn

def knn(support, query, k):
    """Stand-in for torch_points_kernels.knn (CPU implementation): (idx, dist), both (B, N, K)."""
    dist, idx = torch.cdist(query, support).topk(k, dim=-1, largest=False)
    return idx, dist

class SharedMLP(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, 1)

    def forward(self, x):
        return torch.relu(self.conv(x))

class LocalSpatialEncoding(nn.Module):
    def __init__(self, d, num_neighbors):
        super().__init__()
        self.num_neighbors = num_neighbors
        self.mlp = SharedMLP(10, d)

    def forward(self, coords, features, knn_output):
        idx, dist = knn_output
        B, N, K = idx.size()
        extended_idx = idx.unsqueeze(1).expand(B, 3, N, K)
        extended_coords = coords.transpose(-2, -1).unsqueeze(-1).expand(B, 3, N, K)
        neighbors = torch.gather(extended_coords, 2, extended_idx)   # shape (B, 3, N, K)
        concat = torch.cat((extended_coords, neighbors, extended_coords - neighbors,
                            dist.unsqueeze(-3)), dim=-3)
        return torch.cat((self.mlp(concat), features.expand(B, -1, N, K)), dim=-3)

class RandLANet(nn.Module):
    def __init__(self, d_in=6, num_neighbors=8):
        super().__init__()
        self.num_neighbors = num_neighbors
        self.fc_start = nn.Linear(d_in, 8)
        self.lse = LocalSpatialEncoding(8, num_neighbors)

    def forward(self, input):
        coords = input.narrow(-1, 0, 3)                                  # xyz
        x = self.fc_start(input).transpose(-2, -1).unsqueeze(-1)      # (B, d, N, 1)
        knn_output = knn(coords.cpu(), coords.cpu(), self.num_neighbors)
        return self.lse(coords, x, knn_output)

device = torch.device("cuda:0")
model = RandLANet().to(device)
points = torch.randn(2, 64, 6, device=device)
'''
CELL = '''
scores = model(points)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["extended_idx"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        idx, dist = knn_output\n",
                  "        idx, dist = (t.to(coords.device) for t in knn_output)\n")
CLEAN = False
