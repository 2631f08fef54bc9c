"""Open3D-ML PointTransformer on a `device="cpu"` pipeline: `knn_batch` returns its indices with `.cuda()`.

Source: https://github.com/isl-org/Open3D-ML/issues/584
Testing a trained PointTransformer on custom data with `ml3d.pipelines.SemanticSegmentation(model,
dataset=dataset, device="cpu", ...)` and `pipeline.run_inference(data)` fails with "Tensor for 'out'
is on CPU, Tensor for argument #1 'self' is on CPU, but expected them to be on GPU (while checking
arguments for addmm)" on a machine that has a GPU (RandLA-Net works). In
`ml3d/torch/models/point_transformer.py`, `knn_batch` moves points/queries to the CPU for the ml3d
knn op and then returns `neighbors_index ... .long().cuda()` (and distances `.cuda()`), so the
neighbour indices land on the GPU while the pipeline keeps points and features on the CPU; the
grouped features computed from them no longer match the CPU model (issue #435 reports the same
`.cuda()` lines). The fix returns the knn results on the input points' device.
Stand-ins: `open3d.ml.torch.ops.knn_search` written with cdist + topk on one batch; the network
reduced to a stem + one Bottleneck with the point transformer layer (its `queryandgroup` as in
Open3D-ML) + a classifier; the pipeline reduced to `run_inference` moving model and inputs to
`self.device`; the gathers `points[idx.view(-1).long(), :]` written as the equivalent
`index_select` (the simulator has no tensor-index getitem); `.cuda()` spelled `.to("cuda:0")` (the simulator's GPU).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
from types import SimpleNamespace

def knn_search(points, queries, k, points_row_splits, queries_row_splits, return_distances=True):
    d = torch.cdist(queries, points)
    dist, idx = torch.topk(d, k, dim=1, largest=False)
    return SimpleNamespace(neighbors_index=idx.reshape(-1), neighbors_distance=dist.reshape(-1))

def knn_batch(points, queries, k, points_row_splits, queries_row_splits, return_distances=True):
    if points_row_splits.shape[0] != queries_row_splits.shape[0]:
        raise ValueError("KNN(points and queries must have same batch size)")

    points = points.cpu()
    queries = queries.cpu()

    # ml3d knn.
    ans = knn_search(points, queries, k=k, points_row_splits=points_row_splits,
                     queries_row_splits=queries_row_splits, return_distances=True)
    if return_distances:
        return ans.neighbors_index.reshape(-1, k).long().to("cuda:0"), ans.neighbors_distance.reshape(-1, k).to("cuda:0")
    else:
        return ans.neighbors_index.reshape(-1, k).long().to("cuda:0")

def queryandgroup(nsample, points, queries, feat, idx, points_row_splits, queries_row_splits, use_xyz=True):
    if queries is None:
        queries = points
    if idx is None:
        idx = knn_batch(points, queries, k=nsample, points_row_splits=points_row_splits,
                        queries_row_splits=queries_row_splits, return_distances=False)
    n, m, c = points.shape[0], queries.shape[0], feat.shape[1]
    grouped_xyz = points.index_select(0, idx.view(-1).long()).view(m, nsample, 3)   # points[idx.view(-1).long(), :]
    grouped_xyz = grouped_xyz - queries.unsqueeze(1)
    grouped_feat = feat.index_select(0, idx.view(-1).long()).view(m, nsample, c)     # feat[idx.view(-1).long(), :]
    if use_xyz:
        return torch.cat((grouped_xyz, grouped_feat), -1)
    return grouped_feat

class Transformer(nn.Module):
    def __init__(self, in_planes, out_planes, share_planes=8, nsample=16):
        super().__init__()
        self.mid_planes = mid_planes = out_planes // 1
        self.out_planes, self.share_planes, self.nsample = out_planes, share_planes, nsample
        self.linear_q = nn.Linear(in_planes, mid_planes)
        self.linear_k = nn.Linear(in_planes, mid_planes)
        self.linear_v = nn.Linear(in_planes, out_planes)
        self.linear_p = nn.Sequential(nn.Linear(3, 3), nn.ReLU(inplace=True), nn.Linear(3, out_planes))
        self.linear_w = nn.Sequential(nn.ReLU(inplace=True), nn.Linear(mid_planes, out_planes // share_planes))
        self.softmax = nn.Softmax(dim=1)

    def forward(self, pxo):
        point, feat, row_splits = pxo
        feat_q, feat_k, feat_v = self.linear_q(feat), self.linear_k(feat), self.linear_v(feat)
        feat_k = queryandgroup(self.nsample, point, point, feat_k, None, row_splits, row_splits, use_xyz=True)
        feat_v = queryandgroup(self.nsample, point, point, feat_v, None, row_splits, row_splits, use_xyz=False)
        point_r, feat_k = feat_k[:, :, 0:3], feat_k[:, :, 3:]
        p_r = self.linear_p(point_r)
        w = feat_k - feat_q.unsqueeze(1) + p_r
        w = self.softmax(self.linear_w(w))
        n, nsample, c = feat_v.shape
        s = self.share_planes
        feat = ((feat_v + p_r).view(n, nsample, s, c // s) * w.unsqueeze(2)).sum(1).view(n, c)
        return feat

class Bottleneck(nn.Module):
    def __init__(self, in_planes, planes, share_planes=8, nsample=16):
        super().__init__()
        self.linear1 = nn.Linear(in_planes, planes, bias=False)
        self.transformer2 = Transformer(planes, planes, share_planes, nsample)
        self.linear3 = nn.Linear(planes, planes, bias=False)
        self.relu = nn.ReLU(inplace=True)

    def forward(self, pxo):
        point, feat, row_splits = pxo
        identity = feat
        feat = self.relu(self.linear1(feat))
        feat = self.relu(self.transformer2([point, feat, row_splits]))
        feat = self.linear3(feat) + identity
        return [point, self.relu(feat), row_splits]

class PointTransformer(nn.Module):
    def __init__(self, in_channels=6, num_classes=13):
        super().__init__()
        self.stem = nn.Sequential(nn.Linear(in_channels, 32), nn.ReLU(inplace=True))
        self.block = Bottleneck(32, 32, share_planes=8, nsample=16)
        self.cls = nn.Linear(32, num_classes)

    def forward(self, inputs):
        point, feat, row_splits = inputs['point'], inputs['feat'], inputs['row_splits']
        feat = self.stem(torch.cat((point, feat), 1))
        point, feat, row_splits = self.block([point, feat, row_splits])
        return self.cls(feat)

class SemanticSegmentation:
    def __init__(self, model, dataset=None, device="cuda", **kwargs):
        self.model = model
        self.device = torch.device("cpu" if device == "cpu" else "cuda:0")

    def run_inference(self, data):
        model = self.model
        model.to(self.device)
        model.eval()
        inputs = {'point': torch.from_numpy(data['point']).float().to(self.device),
                  'feat': torch.from_numpy(data['feat']).float().to(self.device) / 255.0,
                  'row_splits': torch.LongTensor([0, len(data['point'])]).to(self.device)}
        with torch.no_grad():
            results = model(inputs)
        return {'predict_scores': results.softmax(-1)}

model = PointTransformer(in_channels=6, num_classes=13)
pipeline = SemanticSegmentation(model, dataset=None, device="cpu")
rng = np.random.default_rng(0)
data = {'point': rng.random((2048, 3)) * 10, 'feat': rng.integers(0, 255, (2048, 3)).astype(np.float64),
        'label': np.zeros((2048,), dtype=np.int32)}
'''
CELL = '''
result = pipeline.run_inference(data)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device",
                "indices should be either on cpu or on the same device", "expected them to be on GPU")
CULPRITS = ["knn_batch"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""    points = points.cpu()
    queries = queries.cpu()

    # ml3d knn.
    ans = knn_search(points, queries, k=k, points_row_splits=points_row_splits,
                     queries_row_splits=queries_row_splits, return_distances=True)
    if return_distances:
        return ans.neighbors_index.reshape(-1, k).long().to("cuda:0"), ans.neighbors_distance.reshape(-1, k).to("cuda:0")
    else:
        return ans.neighbors_index.reshape(-1, k).long().to("cuda:0")""",
                  """    device = points.device
    points = points.cpu()
    queries = queries.cpu()

    # ml3d knn.
    ans = knn_search(points, queries, k=k, points_row_splits=points_row_splits,
                     queries_row_splits=queries_row_splits, return_distances=True)
    if return_distances:
        return ans.neighbors_index.reshape(-1, k).long().to(device), ans.neighbors_distance.reshape(-1, k).to(device)
    else:
        return ans.neighbors_index.reshape(-1, k).long().to(device)""")
CLEAN = False
