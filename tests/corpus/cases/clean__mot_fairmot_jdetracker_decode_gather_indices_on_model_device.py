"""FairMOT `JDETracker.update`: the frame blob is built from numpy on the CPU and moved to the model's device, and every decode index (`topk` / `gather`) is produced on that device from the model's own outputs.

Source: https://github.com/ifzhang/FairMOT (src/track.py `eval_seq`: `blob = torch.from_numpy(img).cuda().unsqueeze(0)`;
src/lib/tracker/multitracker.py `JDETracker.update`; src/lib/models/decode.py `mot_decode`, `_topk`, `_nms`;
src/lib/models/utils.py `_gather_feat`, `_tranpose_and_gather_feat`).
Looks like a device trap (a CPU numpy frame, integer index tensors feeding `gather` on the id
embeddings), but the blob is moved before the forward and all indices come from `torch.topk` on
the heatmap, so they live on the model's device. Stand-in: a two-conv head in place of DLA-34;
`meta` stands in for the GPU, so the blob's `.cuda()` is written `.to(opt.device)` (the real code then
continues with `.cpu().numpy()` and the Kalman tracker).
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

def _gather_feat(feat, ind, mask=None):
    dim = feat.size(2)
    ind = ind.unsqueeze(2).expand(ind.size(0), ind.size(1), dim)
    feat = feat.gather(1, ind)
    return feat

def _tranpose_and_gather_feat(feat, ind):
    feat = feat.permute(0, 2, 3, 1).contiguous()
    feat = feat.view(feat.size(0), -1, feat.size(3))
    feat = _gather_feat(feat, ind)
    return feat

def _nms(heat, kernel=3):
    pad = (kernel - 1) // 2
    hmax = nn.functional.max_pool2d(heat, (kernel, kernel), stride=1, padding=pad)
    keep = (hmax == heat).float()
    return heat * keep

def _topk(scores, K=40):
    batch, cat, height, width = scores.size()
    topk_scores, topk_inds = torch.topk(scores.view(batch, cat, -1), K)
    topk_inds = topk_inds % (height * width)
    topk_ys = torch.true_divide(topk_inds, width).int().float()
    topk_xs = (topk_inds % width).int().float()
    topk_score, topk_ind = torch.topk(topk_scores.view(batch, -1), K)
    topk_clses = torch.true_divide(topk_ind, K).int()
    topk_inds = _gather_feat(topk_inds.view(batch, -1, 1), topk_ind).view(batch, K)
    topk_ys = _gather_feat(topk_ys.view(batch, -1, 1), topk_ind).view(batch, K)
    topk_xs = _gather_feat(topk_xs.view(batch, -1, 1), topk_ind).view(batch, K)
    return topk_score, topk_inds, topk_clses, topk_ys, topk_xs

def mot_decode(heat, wh, reg=None, ltrb=False, K=100):
    batch, cat, height, width = heat.size()
    heat = _nms(heat)
    scores, inds, clses, ys, xs = _topk(heat, K=K)
    if reg is not None:
        reg = _tranpose_and_gather_feat(reg, inds)
        reg = reg.view(batch, K, 2)
        xs = xs.view(batch, K, 1) + reg[:, :, 0:1]
        ys = ys.view(batch, K, 1) + reg[:, :, 1:2]
    else:
        xs = xs.view(batch, K, 1) + 0.5
        ys = ys.view(batch, K, 1) + 0.5
    wh = _tranpose_and_gather_feat(wh, inds)
    wh = wh.view(batch, K, 4)
    clses = clses.view(batch, K, 1).float()
    scores = scores.view(batch, K, 1)
    bboxes = torch.cat([xs - wh[..., 0:1], ys - wh[..., 1:2], xs + wh[..., 2:3], ys + wh[..., 3:4]], dim=2)
    detections = torch.cat([bboxes, scores, clses], dim=2)
    return detections, inds

class FairMOTHead(nn.Module):
    def __init__(self, heads={"hm": 1, "wh": 4, "id": 16, "reg": 2}):
        super().__init__()
        self.base = nn.Conv2d(3, 8, kernel_size=4, stride=4)
        self.heads = nn.ModuleDict({k: nn.Conv2d(8, c, kernel_size=1) for k, c in heads.items()})

    def forward(self, x):
        z = torch.relu(self.base(x))
        return [{k: h(z) for k, h in self.heads.items()}]

class JDETracker(object):
    def __init__(self, opt, frame_rate=30):
        self.opt = opt
        self.model = FairMOTHead()
        self.model = self.model.to(opt.device)
        self.model.eval()
        self.frame_id = 0

    def update(self, im_blob, img0):
        self.frame_id += 1
        with torch.no_grad():
            output = self.model(im_blob)[-1]
            hm = output["hm"].sigmoid_()
            wh = output["wh"]
            id_feature = output["id"]
            id_feature = F.normalize(id_feature, dim=1)
            reg = output["reg"] if self.opt.reg_offset else None
            dets, inds = mot_decode(hm, wh, reg=reg, ltrb=self.opt.ltrb, K=self.opt.K)
            id_feature = _tranpose_and_gather_feat(id_feature, inds)
            id_feature = id_feature.squeeze(0)
        return dets, id_feature

class Opt:
    device = torch.device("meta")        # opt.device = torch.device('cuda') with --gpus 0
    reg_offset = True
    ltrb = True
    K = 20

opt = Opt()
tracker = JDETracker(opt, frame_rate=30)
# LoadVideo yields the letterboxed frame as a CHW float32 numpy array in [0, 1]
img = np.random.rand(3, 64, 96).astype(np.float32)
img0 = np.zeros((120, 180, 3), dtype=np.uint8)
'''
CELL = '''
blob = torch.from_numpy(img).to(opt.device).unsqueeze(0)
dets, id_feature = tracker.update(blob, img0)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
