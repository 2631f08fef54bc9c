"""LaneATT under DataParallel: the anchors are plain tensors moved by an overridden `to()`, so the cuda:1 replica adds cuda:0 anchors.

Source: https://github.com/lucastabelini/LaneATT/issues/96
"multi-gpu training": wrapping the model in DataParallel failed in `LaneATT.forward` at
`reg_proposals += self.anchors` with "Expected all tensors to be on the same device, but found at
least two devices, cuda:1 and cuda:0!". LaneATT keeps `self.anchors` (and the anchor-cut indices) as
plain tensor attributes and overrides `cuda()`/`to()` to move them along, which is enough on one GPU;
DataParallel's replicate copies only parameters and buffers, so every replica shares the cuda:0
anchors. Maintainer: "Maybe you have to move self.anchors to the current GPU?"; registering them as
buffers lets replicate broadcast them. Stand-in: LaneATT reduced (small backbone, no anchor-feature
pooling or NMS; the proposal columns are concatenated instead of slice-assigned, which the simulator
cannot do on fake GPUs) and nn.DataParallel on GPUs 0 and 1 with scatter/replicate/gather by hand.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import math
import copy
import torch
import torch.nn as nn

class DataParallel(nn.DataParallel):
    # stand-in: nn.DataParallel on a machine with GPUs 0 and 1, torch's own forward; like torch's
    # replicate it copies parameters and buffers to each GPU and leaves other attributes as they are.
    def __init__(self, module, device_ids=(0, 1)):
        nn.Module.__init__(self)
        self.module, self.dim = module, 0
        self.device_ids = list(device_ids)
        self.output_device = self.device_ids[0]
        self.src_device_obj = torch.device(f"cuda:{self.device_ids[0]}")

    def scatter(self, inputs, kwargs, device_ids):
        chunks = [t.chunk(len(device_ids)) for t in inputs]
        return (tuple(tuple(c[i].to(f"cuda:{d}") for c in chunks) for i, d in enumerate(device_ids)),
                tuple(kwargs for _ in device_ids))

    def replicate(self, module, device_ids):
        replicas = [module]
        for d in device_ids[1:]:
            copies = {}
            for m in module.modules():
                r = m._replicate_for_data_parallel()
                for k, p in m._parameters.items():
                    r._parameters[k] = None if p is None else p.detach().to(f"cuda:{d}")
                for k, b in m._buffers.items():
                    r._buffers[k] = None if b is None else b.to(f"cuda:{d}")
                copies[m] = r
            for m, r in copies.items():
                r._modules = {k: None if c is None else copies[c] for k, c in m._modules.items()}
            replicas.append(copies[module])
        return replicas

    def parallel_apply(self, replicas, inputs, kwargs):
        return [r(*i, **k) for r, i, k in zip(replicas, inputs, kwargs)]

    def gather(self, outputs, output_device):
        return torch.cat([o.to(f"cuda:{output_device}") for o in outputs], dim=self.dim)

class LaneATT(nn.Module):
    def __init__(self, S=12, img_w=64, anchor_feat_channels=8, n_anchors=6):
        super().__init__()
        self.img_w = img_w
        self.n_offsets = S
        self.anchor_ys = torch.linspace(1, 0, steps=self.n_offsets, dtype=torch.float32)
        self.feature_extractor = nn.Sequential(nn.Conv2d(3, 16, 3, stride=4, padding=1), nn.ReLU())
        self.anchors = self.generate_anchors(n_anchors)
        self.conv1 = nn.Conv2d(16, anchor_feat_channels, kernel_size=1)
        self.cls_layer = nn.Linear(anchor_feat_channels, 2 * n_anchors)
        self.reg_layer = nn.Linear(anchor_feat_channels, (self.n_offsets + 1) * n_anchors)

    def generate_anchors(self, n_anchors):
        anchors = torch.zeros((n_anchors, 2 + 2 + 1 + self.n_offsets))
        for k, angle in enumerate([30. + 120. * i / (n_anchors - 1) for i in range(n_anchors)]):
            start_x = k / n_anchors
            anchors[k, 2] = 1.0
            anchors[k, 3] = start_x
            anchors[k, 5:] = (start_x + (1 - self.anchor_ys) / math.tan(math.radians(angle))) * self.img_w
        return anchors

    def forward(self, x):
        batch_features = self.conv1(self.feature_extractor(x)).mean(dim=(2, 3))
        cls_logits = self.cls_layer(batch_features).reshape(x.shape[0], len(self.anchors), 2)
        reg = self.reg_layer(batch_features).reshape(x.shape[0], len(self.anchors), self.n_offsets + 1)

        # Add offsets to anchors
        reg_proposals = torch.zeros((*cls_logits.shape[:2], 5 + self.n_offsets), device=x.device)
        reg_proposals += self.anchors
        reg_proposals = torch.cat([cls_logits, reg_proposals.narrow(2, 2, 2),
                                   reg_proposals.narrow(2, 4, 1 + self.n_offsets) + reg], dim=2)
        return reg_proposals

    def cuda(self, device=None):
        cuda_self = super().cuda(device)
        cuda_self.anchors = cuda_self.anchors.cuda(device)
        cuda_self.anchor_ys = cuda_self.anchor_ys.cuda(device)
        return cuda_self

    def to(self, *args, **kwargs):
        device_self = super().to(*args, **kwargs)
        device_self.anchors = device_self.anchors.to(*args, **kwargs)
        device_self.anchor_ys = device_self.anchor_ys.to(*args, **kwargs)
        return device_self

device = torch.device("cuda:0")
model = DataParallel(LaneATT().to(device), device_ids=[0, 1])
images = torch.randn(4, 3, 32, 64).to(device)
'''
CELL = '''
output = model(images)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.module.anchors"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        self.anchors = self.generate_anchors(n_anchors)",
    "        self.register_buffer('anchors', self.generate_anchors(n_anchors))",
)
CLEAN = False
