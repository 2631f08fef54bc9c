"""CrossPoint's DGCNN builds `idx_base` on a hard-coded cuda:1 while the model runs on cuda:0.

Source: https://github.com/MohamedAfham/CrossPoint/issues/1
"get_graph_feature adds tensors on two different devices": on a two-GPU box,
`python train_crosspoint.py --model dgcnn ...` failed at `idx = idx + idx_base` in
`models/dgcnn.py` with "Expected all tensors to be on the same device, but found at least two
devices, cuda:0 and cuda:1!". `get_graph_feature` does `device = torch.device('cuda:1')` and
`idx_base = torch.arange(0, batch_size, device=device)`; "Is there a reason for hardcoding cuda
device to 1 here?" - the authors' answer: change the device. Stand-in: DGCNN reduced to two
EdgeConv stages and the invariance head; the training loop to the forward call that
fails (in eval mode, a limit of the simulation).
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import argparse
import torch
import torch.nn as nn
import torch.nn.functional as F

def knn(x, k):
    inner = -2*torch.matmul(x.transpose(2, 1), x)
    xx = torch.sum(x**2, dim=1, keepdim=True)
    pairwise_distance = -xx - inner - xx.transpose(2, 1)

    idx = pairwise_distance.topk(k=k, dim=-1)[1]   # (batch_size, num_points, k)
    return idx


def get_graph_feature(x, k=20, idx=None):
    batch_size = x.size(0)
    num_points = x.size(2)
    x = x.view(batch_size, -1, num_points)
    if idx is None:
        idx = knn(x, k=k)   # (batch_size, num_points, k)
    device = torch.device('cuda:1')

    idx_base = torch.arange(0, batch_size, device=device).view(-1, 1, 1)*num_points

    idx = idx + idx_base

    idx = idx.view(-1)

    _, num_dims, _ = x.size()

    x = x.transpose(2, 1).contiguous()
    feature = x.view(batch_size*num_points, -1).index_select(0, idx)   # [idx, :] in the repo
    feature = feature.view(batch_size, num_points, k, num_dims)
    x = x.view(batch_size, num_points, 1, num_dims).repeat(1, 1, k, 1)

    feature = torch.cat((feature-x, x), dim=3).permute(0, 3, 1, 2).contiguous()

    return feature

class DGCNN(nn.Module):
    def __init__(self, args, cls=-1):
        super(DGCNN, self).__init__()
        self.args = args
        self.k = args.k
        self.bn1 = nn.BatchNorm2d(64)
        self.bn2 = nn.BatchNorm2d(64)
        self.bn5 = nn.BatchNorm1d(args.emb_dims)
        self.conv1 = nn.Sequential(nn.Conv2d(6, 64, kernel_size=1, bias=False), self.bn1,
                                   nn.LeakyReLU(negative_slope=0.2))
        self.conv2 = nn.Sequential(nn.Conv2d(64*2, 64, kernel_size=1, bias=False), self.bn2,
                                   nn.LeakyReLU(negative_slope=0.2))
        self.conv5 = nn.Sequential(nn.Conv1d(128, args.emb_dims, kernel_size=1, bias=False), self.bn5,
                                   nn.LeakyReLU(negative_slope=0.2))
        self.cls = cls
        self.inv_head = nn.Sequential(
                            nn.Linear(args.emb_dims * 2, args.emb_dims),
                            nn.BatchNorm1d(args.emb_dims),
                            nn.ReLU(inplace=True),
                            nn.Linear(args.emb_dims, 256)
                            )

    def forward(self, x):
        batch_size = x.size(0)
        x = get_graph_feature(x, k=self.k)
        x = self.conv1(x)
        x1 = x.max(dim=-1, keepdim=False)[0]

        x = get_graph_feature(x1, k=self.k)
        x = self.conv2(x)
        x2 = x.max(dim=-1, keepdim=False)[0]

        x = torch.cat((x1, x2), dim=1)
        x = self.conv5(x)
        x1 = F.adaptive_max_pool1d(x, 1).view(batch_size, -1)
        x2 = F.adaptive_avg_pool1d(x, 1).view(batch_size, -1)
        x = torch.cat((x1, x2), 1)
        feat = x
        inv_feat = self.inv_head(feat)
        return x, inv_feat, feat

args = argparse.Namespace(k=15, emb_dims=128, dropout=0.5, batch_size=20)
device = torch.device("cuda:0")              # torch.device("cuda"): the first GPU
point_model = DGCNN(args).to(device)
point_model.eval()     # simulation: a fake-cuda BatchNorm cannot update running stats in train mode

# one batch of ShapeNet point clouds (B, 3, N), already moved like in train_crosspoint.py
data = torch.randn(args.batch_size, 3, 256).to(device)
'''
CELL = '''
_, point_feats, _ = point_model(data)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["point_model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("    device = torch.device('cuda:1')\n", "    device = x.device\n")
CLEAN = False
