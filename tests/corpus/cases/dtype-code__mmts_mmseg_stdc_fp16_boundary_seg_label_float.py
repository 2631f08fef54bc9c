"""mmsegmentation STDC trained with fp16: the boundary loss convolves a float32 label map with the half Laplacian kernel.

Source: https://github.com/open-mmlab/mmsegmentation/issues/1462
The user added `optimizer_config = dict(type='Fp16OptimizerHook', loss_scale='dynamic')` and
`fp16 = dict()` to stdc1_512x1024_80k_cityscapes.py and training failed with "Input type
(torch.cuda.FloatTensor) and weight type (torch.cuda.HalfTensor) should be the same". In STDCHead's
loss the label map is cast with `.float()` and convolved with `laplacian_kernel`, a frozen parameter
that the fp16 wrapper turned into half. The maintainers' fix (#1463, confirmed by the user):
`seg_label = seg_label.to(self.laplacian_kernel)`. Stand-in: an encoder-decoder with a tiny STDCHead
keeping the Laplacian/fusion kernels and the boundary-target computation; `model.half()` stands for
mmcv's `wrap_fp16_model`; CPU (dtype bug only).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class STDCHead(nn.Module):
    def __init__(self, in_channels=8, num_classes=4, boundary_threshold=0.1):
        super().__init__()
        self.conv_seg = nn.Conv2d(in_channels, num_classes, 1)
        self.boundary_threshold = boundary_threshold
        self.laplacian_kernel = nn.Parameter(torch.tensor(
            [-1, -1, -1, -1, 8, -1, -1, -1, -1], dtype=torch.float32).reshape((1, 1, 3, 3)),
            requires_grad=False)
        self.fusion_kernel = nn.Parameter(torch.tensor(
            [[6. / 10], [3. / 10], [1. / 10]], dtype=torch.float32).reshape(1, 3, 1, 1),
            requires_grad=False)

    def forward(self, x):
        return self.conv_seg(x)

    def losses(self, seg_logit, seg_label):
        seg_label = seg_label.float()
        boundary_targets = F.conv2d(seg_label, self.laplacian_kernel, padding=1)
        boundary_targets = boundary_targets.clamp(min=0)
        boundary_targets[boundary_targets > self.boundary_threshold] = 1
        boundary_targets[boundary_targets <= self.boundary_threshold] = 0
        x2 = F.conv2d(seg_label, self.laplacian_kernel, stride=2, padding=1).clamp(min=0)
        x4 = F.conv2d(seg_label, self.laplacian_kernel, stride=4, padding=1).clamp(min=0)
        x4_up = F.interpolate(x4, boundary_targets.shape[2:], mode='nearest')
        x2_up = F.interpolate(x2, boundary_targets.shape[2:], mode='nearest')
        pyramid = torch.stack((boundary_targets, x2_up, x4_up), dim=1).squeeze(2)
        pyramid = F.conv2d(pyramid, self.fusion_kernel)
        target = (pyramid > self.boundary_threshold).to(seg_logit.dtype)
        edge = seg_logit.mean(dim=1, keepdim=True)
        return {"loss_bd": (edge - target).abs().mean()}

class EncoderDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.decode_head = STDCHead()

    def forward_train(self, img, gt_semantic_seg):
        seg_logit = self.decode_head(self.backbone(img))
        return self.decode_head.losses(seg_logit, gt_semantic_seg)

model = EncoderDecoder()
model.half()                      # fp16 = dict(): mmcv's wrap_fp16_model
img = torch.randn(2, 3, 16, 16).half()
gt_semantic_seg = torch.randint(0, 4, (2, 1, 16, 16))
'''
CELL = '''
losses = model.forward_train(img, gt_semantic_seg)
'''
EXPECT_ERROR = ("should be the same", "same dtype", "expected scalar type")
CULPRITS = ["model.decode_head"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("seg_label = seg_label.float()",
                  "seg_label = seg_label.to(self.laplacian_kernel)")
CLEAN = False
