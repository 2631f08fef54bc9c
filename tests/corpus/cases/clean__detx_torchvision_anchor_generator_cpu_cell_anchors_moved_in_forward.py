"""Look-alike: torchvision's AnchorGenerator keeps `cell_anchors` as a plain list of CPU tensors; `forward` moves them.

Source: https://github.com/pytorch/vision/blob/main/torchvision/models/detection/anchor_utils.py
`AnchorGenerator.__init__` builds `self.cell_anchors` (one base-anchor tensor per feature level) on the
CPU and stores them in a plain Python list, so `model.to("cuda")` leaves them behind. That is by design:
`forward` calls `set_cell_anchors(dtype, device)`, which re-assigns the list with each tensor moved to the
feature maps' dtype and device before any anchor is combined with GPU tensors. CPU `cell_anchors` next
to a GPU model are right here: no finding expected. Stand-in: `AnchorGenerator` as in torchvision, the
RPN head and box decoding reduced to one level, `ImageList` as a small class; the backbone is one conv.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F
from typing import List

class ImageList:
    def __init__(self, tensors, image_sizes):
        self.tensors, self.image_sizes = tensors, image_sizes

class AnchorGenerator(nn.Module):
    def __init__(self, sizes=((32, 64),), aspect_ratios=((0.5, 1.0, 2.0),)):
        super().__init__()
        self.sizes = sizes
        self.aspect_ratios = aspect_ratios
        self.cell_anchors = [self.generate_anchors(size, aspect_ratio)
                             for size, aspect_ratio in zip(sizes, aspect_ratios)]

    def generate_anchors(self, scales, aspect_ratios, dtype=torch.float32, device=torch.device("cpu")):
        scales = torch.as_tensor(scales, dtype=dtype, device=device)
        aspect_ratios = torch.as_tensor(aspect_ratios, dtype=dtype, device=device)
        h_ratios = torch.sqrt(aspect_ratios)
        w_ratios = 1 / h_ratios
        ws = (w_ratios[:, None] * scales[None, :]).view(-1)
        hs = (h_ratios[:, None] * scales[None, :]).view(-1)
        base_anchors = torch.stack([-ws, -hs, ws, hs], dim=1) / 2
        return base_anchors.round()

    def set_cell_anchors(self, dtype, device):
        self.cell_anchors = [cell_anchor.to(dtype=dtype, device=device) for cell_anchor in self.cell_anchors]

    def num_anchors_per_location(self):
        return [len(s) * len(a) for s, a in zip(self.sizes, self.aspect_ratios)]

    def grid_anchors(self, grid_sizes, strides):
        anchors = []
        for size, stride, base_anchors in zip(grid_sizes, strides, self.cell_anchors):
            grid_height, grid_width = size
            stride_height, stride_width = stride
            device = base_anchors.device
            shifts_x = torch.arange(0, grid_width, dtype=torch.int32, device=device) * stride_width
            shifts_y = torch.arange(0, grid_height, dtype=torch.int32, device=device) * stride_height
            shift_y, shift_x = torch.meshgrid(shifts_y, shifts_x, indexing="ij")
            shift_x = shift_x.reshape(-1)
            shift_y = shift_y.reshape(-1)
            shifts = torch.stack((shift_x, shift_y, shift_x, shift_y), dim=1)
            anchors.append((shifts.view(-1, 1, 4) + base_anchors.view(1, -1, 4)).reshape(-1, 4))
        return anchors

    def forward(self, image_list, feature_maps: List[torch.Tensor]):
        grid_sizes = [feature_map.shape[-2:] for feature_map in feature_maps]
        image_size = image_list.tensors.shape[-2:]
        dtype, device = feature_maps[0].dtype, feature_maps[0].device
        strides = [[torch.tensor(image_size[0] // g[0], dtype=torch.int64, device=device),
                    torch.tensor(image_size[1] // g[1], dtype=torch.int64, device=device)] for g in grid_sizes]
        self.set_cell_anchors(dtype, device)
        anchors_over_all_feature_maps = self.grid_anchors(grid_sizes, strides)
        anchors = [torch.cat(list(anchors_over_all_feature_maps)) for _ in range(len(image_list.image_sizes))]
        return anchors

class RPNHead(nn.Module):
    def __init__(self, in_channels, num_anchors):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, in_channels, 3, padding=1)
        self.cls_logits = nn.Conv2d(in_channels, num_anchors, 1)
        self.bbox_pred = nn.Conv2d(in_channels, num_anchors * 4, 1)

    def forward(self, x):
        t = F.relu(self.conv(x[0]))
        return [self.cls_logits(t)], [self.bbox_pred(t)]

class RegionProposalNetwork(nn.Module):
    def __init__(self, anchor_generator, head):
        super().__init__()
        self.anchor_generator, self.head = anchor_generator, head

    def forward(self, images, features):
        objectness, pred_bbox_deltas = self.head(list(features.values()))
        anchors = self.anchor_generator(images, list(features.values()))
        n = len(anchors)
        deltas = pred_bbox_deltas[0].permute(0, 2, 3, 1).reshape(n, -1, 4)
        scores = objectness[0].permute(0, 2, 3, 1).reshape(n, -1).sigmoid()
        boxes = torch.stack(anchors) + deltas          # box_coder.decode, simplified
        return boxes, scores

class FasterRCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Conv2d(3, 16, 16, 16)
        anchor_generator = AnchorGenerator()
        self.rpn = RegionProposalNetwork(anchor_generator, RPNHead(16, anchor_generator.num_anchors_per_location()[0]))

    def forward(self, images):
        image_list = ImageList(images, [tuple(images.shape[-2:])] * images.shape[0])
        features = {"0": self.backbone(images)}
        return self.rpn(image_list, features)

device = torch.device("cuda:0")
model = FasterRCNN().to(device)
model.eval()
images = torch.rand(2, 3, 128, 128).to(device)
'''
CELL = '''
with torch.no_grad():
    proposals, scores = model(images)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
