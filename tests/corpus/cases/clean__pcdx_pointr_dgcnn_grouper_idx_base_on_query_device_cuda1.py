"""Look-alike: PoinTr's DGCNN_Grouper builds the kNN idx_base on the queries' device, so it runs on cuda:1.

Source: https://github.com/yuxumin/PoinTr/blob/master/models/dgcnn_group.py
`get_graph_feature` computes kNN indices with `knn_point` (topk over `square_distance`) and offsets
them per batch with `idx_base = torch.arange(0, batch_size, device=x_q.device)`: the arange
follows the point features instead of a hard-coded device (the DGCNN copies that hard-code
`torch.device('cuda')` break on a second GPU). The grouper lives on cuda:1 with its inputs, and the
cell runs. Stand-in notes: the `[idx, :]` gather is written as `index_select` (a limit of the
simulation); the pointnet2_ops FPS downsampling is not used by this cell.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def knn_point(nsample, xyz, new_xyz):
    sqrdists = square_distance(new_xyz, xyz)
    _, group_idx = torch.topk(sqrdists, nsample, dim = -1, largest=False, sorted=False)
    return group_idx

def square_distance(src, dst):
    B, N, _ = src.shape
    _, M, _ = dst.shape
    dist = -2 * torch.matmul(src, dst.permute(0, 2, 1))
    dist += torch.sum(src ** 2, -1).view(B, N, 1)
    dist += torch.sum(dst ** 2, -1).view(B, 1, M)
    return dist

class DGCNN_Grouper(nn.Module):
    def __init__(self):
        super().__init__()
        self.input_trans = nn.Conv1d(3, 8, 1)
        self.layer1 = nn.Sequential(nn.Conv2d(16, 32, kernel_size=1, bias=False),
                                   nn.GroupNorm(4, 32),
                                   nn.LeakyReLU(negative_slope=0.2)
                                   )

    @staticmethod
    def get_graph_feature(coor_q, x_q, coor_k, x_k):
        # coor: bs, 3, np, x: bs, c, np
        k = 16
        batch_size = x_k.size(0)
        num_points_k = x_k.size(2)
        num_points_q = x_q.size(2)

        with torch.no_grad():
            idx = knn_point(k, coor_k.transpose(-1, -2).contiguous(), coor_q.transpose(-1, -2).contiguous()) # B G M
            idx = idx.transpose(-1, -2).contiguous()
            assert idx.shape[1] == k
            idx_base = torch.arange(0, batch_size, device=x_q.device).view(-1, 1, 1) * num_points_k
            idx = idx + idx_base
            idx = idx.view(-1)
        num_dims = x_k.size(1)
        x_k = x_k.transpose(2, 1).contiguous()
        feature = x_k.view(batch_size * num_points_k, -1).index_select(0, idx)   # [idx, :] in the repo
        feature = feature.view(batch_size, k, num_points_q, num_dims).permute(0, 3, 2, 1).contiguous()
        x_q = x_q.view(batch_size, num_dims, num_points_q, 1).expand(-1, -1, -1, k)
        feature = torch.cat((feature - x_q, x_q), dim=1)
        return feature

device = torch.device("cuda:1")          # second GPU: the first one is busy with another run
grouper = DGCNN_Grouper().to(device)
# partial ShapeNet-55 point clouds, bs x 3 x N, already on the model's GPU
coor = torch.randn(4, 3, 512, device=device)
'''
CELL = '''
with torch.no_grad():
    f = grouper.input_trans(coor)
    f = grouper.get_graph_feature(coor, f, coor, f)
    f = grouper.layer1(f)
    f = f.max(dim=-1, keepdim=False)[0]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
