"""torchvision Faster R-CNN trained on the GPU, then run on the CPU: the AnchorGenerator's cached anchors stay on cuda.

Source: https://github.com/pytorch/vision/issues/1738
"when training on the GPU then running it, in eval mode, on the CPU" `fasterrcnn_resnet50_fpn`
failed in `rpn.forward` at `self.box_coder.decode(pred_bbox_deltas.detach(), anchors)`:
`AnchorGenerator.cached_grid_anchors` keeps the anchors it built (on the feature maps' device) in a
plain dict `self._cache` keyed only by grid sizes and strides, which `model.to('cpu')` does not
touch. Fixed in torchvision by keying the cache on the device (pytorch/vision#1745). The detector
is reduced to backbone + RPN head + anchor generator + box decoding (columns taken with `unbind`:
the fake-cuda simulation refuses Python indexing).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import math
import torch
from torch import nn

class AnchorGenerator(nn.Module):
    def __init__(self, sizes=(32,), aspect_ratios=(0.5, 1.0, 2.0)):
        super().__init__()
        self.sizes, self.aspect_ratios = sizes, aspect_ratios
        self.cell_anchors = None
        self._cache = {}

    def generate_anchors(self, scales, aspect_ratios, dtype=torch.float32, device="cpu"):
        scales = torch.as_tensor(scales, dtype=dtype, device=device)
        aspect_ratios = torch.as_tensor(aspect_ratios, dtype=dtype, device=device)
        h_ratios = torch.sqrt(aspect_ratios)
        w_ratios = 1 / h_ratios
        ws = (w_ratios.unsqueeze(1) * scales.unsqueeze(0)).view(-1)
        hs = (h_ratios.unsqueeze(1) * scales.unsqueeze(0)).view(-1)
        base_anchors = torch.stack([-ws, -hs, ws, hs], dim=1) / 2
        return base_anchors.round()

    def set_cell_anchors(self, dtype, device):
        if self.cell_anchors is not None:
            return self.cell_anchors
        self.cell_anchors = [self.generate_anchors(self.sizes, self.aspect_ratios, dtype, device)]

    def grid_anchors(self, grid_sizes, strides):
        anchors = []
        for size, stride, base_anchors in zip(grid_sizes, strides, self.cell_anchors):
            grid_height, grid_width = size
            stride_height, stride_width = stride
            device = base_anchors.device
            shifts_x = torch.arange(0, grid_width, dtype=torch.float32, device=device) * stride_width
            shifts_y = torch.arange(0, grid_height, dtype=torch.float32, device=device) * stride_height
            shift_y, shift_x = torch.meshgrid(shifts_y, shifts_x, indexing="ij")
            shift_x, shift_y = shift_x.reshape(-1), shift_y.reshape(-1)
            shifts = torch.stack((shift_x, shift_y, shift_x, shift_y), dim=1)
            anchors.append((shifts.view(-1, 1, 4) + base_anchors.view(1, -1, 4)).reshape(-1, 4))
        return anchors

    def cached_grid_anchors(self, grid_sizes, strides):
        key = str(grid_sizes + strides)
        if key in self._cache:
            return self._cache[key]
        anchors = self.grid_anchors(grid_sizes, strides)
        self._cache[key] = anchors
        return anchors

    def forward(self, image_tensors, feature_maps):
        grid_sizes = list([feature_map.shape[-2:] for feature_map in feature_maps])
        image_size = image_tensors.shape[-2:]
        strides = [[int(image_size[0] / g[0]), int(image_size[1] / g[1])] for g in grid_sizes]
        self.set_cell_anchors(feature_maps[0].dtype, feature_maps[0].device)
        anchors_over_all_feature_maps = self.cached_grid_anchors(grid_sizes, strides)
        return [torch.cat(anchors_over_all_feature_maps) for _ in range(image_tensors.shape[0])]

class BoxCoder:
    def decode(self, rel_codes, boxes):
        boxes = torch.cat(boxes, dim=0)
        x1, y1, x2, y2 = boxes.unbind(1)
        widths = x2 - x1
        heights = y2 - y1
        ctr_x = x1 + 0.5 * widths
        ctr_y = y1 + 0.5 * heights
        dx, dy, dw, dh = rel_codes.unbind(1)
        dw = torch.clamp(dw, max=math.log(1000. / 16))
        dh = torch.clamp(dh, max=math.log(1000. / 16))
        pred_ctr_x = dx * widths + ctr_x
        pred_ctr_y = dy * heights + ctr_y
        pred_w = torch.exp(dw) * widths
        pred_h = torch.exp(dh) * heights
        return torch.stack((pred_ctr_x - 0.5 * pred_w, pred_ctr_y - 0.5 * pred_h,
                            pred_ctr_x + 0.5 * pred_w, pred_ctr_y + 0.5 * pred_h), dim=1)

class RegionProposalNetwork(nn.Module):
    def __init__(self, in_channels=16, num_anchors=3):
        super().__init__()
        self.anchor_generator = AnchorGenerator()
        self.conv = nn.Conv2d(in_channels, in_channels, 3, padding=1)
        self.cls_logits = nn.Conv2d(in_channels, num_anchors, 1)
        self.bbox_pred = nn.Conv2d(in_channels, num_anchors * 4, 1)
        self.box_coder = BoxCoder()

    def forward(self, images, features):
        t = torch.relu(self.conv(features[0]))
        objectness, pred_bbox_deltas = self.cls_logits(t), self.bbox_pred(t)
        anchors = self.anchor_generator(images, features)
        n = pred_bbox_deltas.shape[0]
        pred_bbox_deltas = pred_bbox_deltas.view(n, -1, 4, *t.shape[-2:]).permute(0, 3, 4, 1, 2).reshape(-1, 4)
        proposals = self.box_coder.decode(pred_bbox_deltas.detach(), anchors)
        return proposals.view(n, -1, 4), objectness

class FasterRCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, stride=4, padding=1), nn.ReLU())
        self.rpn = RegionProposalNetwork()

    def forward(self, images):
        features = [self.backbone(images)]
        return self.rpn(images, features)

device = torch.device("cuda:0")
model = FasterRCNN().to(device)
model.train()
train_images = torch.rand(2, 3, 64, 64).to(device)
proposals, _ = model(train_images)                  # training on the GPU fills the anchor cache
model = model.to("cpu")
model.eval()
dummy_data = torch.rand(1, 3, 64, 64)
'''
CELL = '''
out_data2 = model(dummy_data)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.rpn.anchor_generator"]
FIX = "namespace"
REFERENCE_FIX = '''
model.rpn.anchor_generator._cache.clear()
model.rpn.anchor_generator.cell_anchors = None
'''
REFERENCE_EDIT = None
CLEAN = False
