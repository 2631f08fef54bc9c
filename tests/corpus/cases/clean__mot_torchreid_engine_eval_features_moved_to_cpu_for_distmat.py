"""torchreid evaluation: features are extracted on the GPU and moved to the CPU on purpose, and the query/gallery distance matrix is computed there with CPU pids/camids.

Source: https://github.com/KaiyangZhou/deep-person-reid (torchreid/engine/engine.py, `Engine._evaluate` /
`_feature_extraction`: `features = self.extract_features(imgs); features = features.cpu()`) and
torchreid/metrics/distance.py (`euclidean_squared_distance`, `cosine_distance`).
Looks like a bug (a cuda model, `.cpu()` features, CPU label lists), but every operand of the
distance computation is on the CPU by design: the evaluation then goes to numpy / Cython ranking.
Stand-in: a linear backbone in place of OSNet; `imgs.cuda()` is written with an explicit index and
the pids/camids are concatenated as tensors instead of `.tolist()` + `np.asarray`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

def euclidean_squared_distance(input1, input2):
    m, n = input1.size(0), input2.size(0)
    mat1 = torch.pow(input1, 2).sum(dim=1, keepdim=True).expand(m, n)
    mat2 = torch.pow(input2, 2).sum(dim=1, keepdim=True).expand(n, m).t()
    distmat = mat1 + mat2
    distmat.addmm_(input1, input2.t(), beta=1, alpha=-2)
    return distmat

def cosine_distance(input1, input2):
    input1_normed = F.normalize(input1, p=2, dim=1)
    input2_normed = F.normalize(input2, p=2, dim=1)
    return 1 - torch.mm(input1_normed, input2_normed.t())

def compute_distance_matrix(input1, input2, metric="euclidean"):
    assert input1.size(1) == input2.size(1)
    if metric == "euclidean":
        return euclidean_squared_distance(input1, input2)
    return cosine_distance(input1, input2)

class OSNet(nn.Module):
    def __init__(self, feature_dim=64):
        super().__init__()
        self.features = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 16, feature_dim), nn.ReLU())

    def forward(self, x):
        return self.features(x)

class ImageSoftmaxEngine:
    def __init__(self, model, use_gpu=True):
        self.model = model
        self.use_gpu = use_gpu

    def parse_data_for_eval(self, data):
        return data["img"], data["pid"], data["camid"]

    def extract_features(self, input):
        return self.model(input)

    def _feature_extraction(self, data_loader):
        f_, pids_, camids_ = [], [], []
        for batch_idx, data in enumerate(data_loader):
            imgs, pids, camids = self.parse_data_for_eval(data)
            if self.use_gpu:
                imgs = imgs.cuda(torch.device("cuda:0"))
            features = self.extract_features(imgs)
            features = features.cpu()
            f_.append(features)
            pids_.append(pids)
            camids_.append(camids)
        f_ = torch.cat(f_, 0)
        return f_, torch.cat(pids_), torch.cat(camids_)

model = OSNet(64).to(torch.device("cuda:0"))
model.eval()
engine = ImageSoftmaxEngine(model, use_gpu=True)

def make_loader(n_batches, pids_per_batch):
    return [{"img": torch.rand(4, 3, 32, 16), "pid": torch.tensor(pids_per_batch[b]),
             "camid": torch.tensor([0, 1, 2, 3])} for b in range(n_batches)]

query_loader = make_loader(2, [[1, 2, 3, 4], [5, 6, 7, 8]])
gallery_loader = make_loader(3, [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]])
'''
CELL = '''
with torch.no_grad():
    qf, q_pids, q_camids = engine._feature_extraction(query_loader)
    gf, g_pids, g_camids = engine._feature_extraction(gallery_loader)
distmat = compute_distance_matrix(qf, gf, metric="euclidean")
same_id = q_pids.unsqueeze(1).eq(g_pids.unsqueeze(0))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
