"""view-GCN validation: the view-graph `vertices` are built from numpy `phi` values, so they are float64.

Source: https://github.com/weixmath/view-GCN/issues/15
`trainer.update_validation_accuracy` failed in `LocalGCN1 -> KNN_dist.forward -> self.R(v_F)` with
"expected scalar type Double but found Float". `view_GCN.__init__` builds the camera-vertex graph as
`self.vertices = torch.tensor(vertices).cuda()` where the coordinates are `phi = np.sqrt(3)` (numpy
float64) expressions, so `torch.tensor` infers float64; the relative-position features `v_F` built
from them are float64 and meet the float32 `nn.Linear(10, 10)`. Stand-in: the repo's view_gcn_utils
(`square_distance`, `knn`, `index_points`, `KNN_dist`, `LocalGCN`) and a view_GCN head with a linear
stand-in for the ResNet trunk, 12 views, on the CPU (`.cuda()` dropped).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

def square_distance(src, dst):
    B, N, _ = src.shape
    _, M, _ = dst.shape
    dist = -2 * torch.matmul(src, dst.permute(0, 2, 1))
    dist += torch.sum(src ** 2, -1).view(B, N, 1)
    dist += torch.sum(dst ** 2, -1).view(B, 1, M)
    return dist

def index_points(points, idx):
    device = points.device
    B = points.shape[0]
    view_shape = list(idx.shape)
    view_shape[1:] = [1] * (len(view_shape) - 1)
    repeat_shape = list(idx.shape)
    repeat_shape[0] = 1
    batch_indices = torch.arange(B, dtype=torch.long).to(device).view(view_shape).repeat(repeat_shape)
    return points[batch_indices, idx, :]

def knn(nsample, xyz, new_xyz):
    dist = square_distance(xyz, new_xyz)
    id = torch.topk(dist, k=nsample, dim=1, largest=False)[1]
    return torch.transpose(id, 1, 2)

class KNN_dist(nn.Module):
    def __init__(self, k):
        super(KNN_dist, self).__init__()
        self.R = nn.Sequential(nn.Linear(10, 10), nn.LeakyReLU(0.2, inplace=True),
                               nn.Linear(10, 10), nn.LeakyReLU(0.2, inplace=True), nn.Linear(10, 1))
        self.k = k

    def forward(self, F, vertices):
        id = knn(self.k, vertices, vertices)
        F = index_points(F, id)
        v = index_points(vertices, id)
        v_0 = v[:, :, 0, :].unsqueeze(-2).repeat(1, 1, self.k, 1)
        v_F = torch.cat((v_0, v, v_0 - v, torch.norm(v_0 - v, dim=-1, p=2).unsqueeze(-1)), -1)
        v_F = self.R(v_F)
        F = torch.mul(v_F, F)
        return torch.sum(F, -2)

class LocalGCN(nn.Module):
    def __init__(self, k, n_views):
        super(LocalGCN, self).__init__()
        self.conv = nn.Sequential(nn.Linear(512, 512), nn.BatchNorm1d(512), nn.LeakyReLU(0.2, inplace=True))
        self.k = k
        self.n_views = n_views
        self.KNN = KNN_dist(k=self.k)

    def forward(self, F, V):
        F = self.KNN(F, V)
        F = F.view(-1, 512)
        F = self.conv(F)
        return F.view(-1, self.n_views, 512)

class view_GCN(nn.Module):
    def __init__(self, nclasses=40, num_views=12):
        super(view_GCN, self).__init__()
        self.num_views = num_views
        self.net_1 = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 512))     # resnet18 trunk stand-in
        phi = np.sqrt(3)
        vertices = [[1, 0, phi/3], [phi/2, -1/2, phi/3], [1/2, -phi/2, phi/3],
                    [0, -1, phi/3], [-1/2, -phi/2, phi/3], [-phi/2, -1/2, phi/3],
                    [-1, 0, phi/3], [-phi/2, 1/2, phi/3], [-1/2, phi/2, phi/3],
                    [0, 1, phi/3], [1/2, phi / 2, phi/3], [phi / 2, 1/2, phi/3]]
        self.vertices = torch.tensor(vertices)                                 # .cuda()
        self.LocalGCN1 = LocalGCN(k=4, n_views=self.num_views)
        self.cls = nn.Linear(512, nclasses)

    def forward(self, x):
        views = self.num_views
        y = self.net_1(x)
        y = y.view((int(x.shape[0] / views), views, -1))
        vertices = self.vertices.unsqueeze(0).repeat(y.shape[0], 1, 1)
        y = self.LocalGCN1(y, vertices)
        pooled_view1 = torch.max(y, 1)[0]
        return self.cls(pooled_view1)

model = view_GCN()
model.eval()
in_data = torch.randn(2 * 12, 3, 8, 8)          # two objects x 12 rendered views
'''
CELL = '''
with torch.no_grad():
    out_data = model(in_data)
'''
EXPECT_ERROR = ("expected scalar type", "same dtype", "should be the same", "expected m1 and m2")
CULPRITS = ["model.vertices"]
FIX = "namespace"
REFERENCE_FIX = '''
model.vertices = model.vertices.float()
'''
REFERENCE_EDIT = None
CLEAN = False
