"""YOLOX: `YOLOXHead.get_output_and_grid` reuses a grid cached in the plain list `self.grids` on the device it was built on.

Source: https://github.com/Megvii-BaseDetection/YOLOX/pull/1679
The PR author hit a device error at `output[..., :2] = (output[..., :2] + grid) * stride` in
`get_output_and_grid`: "some tensor is not using the same device as the model". The grid is cached in
`self.grids[k]` (a Python list, so `Module.to()` never moves it) and is only rebuilt when the feature
shape changes; a grid built during an earlier pass on another device is reused as is. The proposed fix:
`grid = grid.view(1, -1, 2).to(output.device)`. Here the user runs one training step on the CPU as a
smoke test, then moves the model to the GPU and trains at the same image size.
Stand-in: YOLOXHead reduced to the 1x1 prediction convs, the grid cache and a small loss; backbone/PAFPN
by two strided convs. `.type(xin[0].type())` is written `.type_as(xin[0])` (same device and dtype);
the GPU is meta.
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn

def meshgrid(*tensors):
    return torch.meshgrid(*tensors, indexing="ij")

class YOLOXHead(nn.Module):
    def __init__(self, num_classes, strides=(8, 16), in_channels=(16, 32)):
        super().__init__()
        self.n_anchors = 1
        self.num_classes = num_classes
        self.strides = strides
        self.cls_preds = nn.ModuleList(nn.Conv2d(c, self.n_anchors * num_classes, 1) for c in in_channels)
        self.reg_preds = nn.ModuleList(nn.Conv2d(c, 4, 1) for c in in_channels)
        self.obj_preds = nn.ModuleList(nn.Conv2d(c, self.n_anchors * 1, 1) for c in in_channels)
        self.grids = [torch.zeros(1)] * len(in_channels)

    def forward(self, xin, labels=None):
        outputs, x_shifts, y_shifts, expanded_strides = [], [], [], []
        for k, (stride_this_level, x) in enumerate(zip(self.strides, xin)):
            reg_output = self.reg_preds[k](x)
            obj_output = self.obj_preds[k](x)
            cls_output = self.cls_preds[k](x)
            output = torch.cat([reg_output, obj_output, cls_output], 1)
            output, grid = self.get_output_and_grid(output, k, stride_this_level, xin[0])
            x_shifts.append(grid[:, :, 0])
            y_shifts.append(grid[:, :, 1])
            expanded_strides.append(torch.zeros(1, grid.shape[1]).fill_(stride_this_level).type_as(xin[0]))
            outputs.append(output)
        return self.get_losses(x_shifts, y_shifts, expanded_strides, labels, torch.cat(outputs, 1))

    def get_output_and_grid(self, output, k, stride, ref):
        grid = self.grids[k]
        batch_size = output.shape[0]
        n_ch = 5 + self.num_classes
        hsize, wsize = output.shape[-2:]
        if grid.shape[2:4] != output.shape[2:4]:
            yv, xv = meshgrid(torch.arange(hsize), torch.arange(wsize))
            grid = torch.stack((xv, yv), 2).view(1, 1, hsize, wsize, 2).type_as(ref)
            self.grids[k] = grid
        output = output.view(batch_size, self.n_anchors, n_ch, hsize, wsize)
        output = output.permute(0, 1, 3, 4, 2).reshape(batch_size, self.n_anchors * hsize * wsize, -1)
        grid = grid.view(1, -1, 2)
        output[..., :2] = (output[..., :2] + grid) * stride
        output[..., 2:4] = torch.exp(output[..., 2:4]) * stride
        return output, grid

    def get_losses(self, x_shifts, y_shifts, expanded_strides, labels, outputs):
        x_shifts = torch.cat(x_shifts, 1)
        y_shifts = torch.cat(y_shifts, 1)
        expanded_strides = torch.cat(expanded_strides, 1)
        centers_x = (x_shifts + 0.5) * expanded_strides
        centers_y = (y_shifts + 0.5) * expanded_strides
        gt_cx = (labels[:, :, 1:2] + labels[:, :, 3:4]) / 2
        gt_cy = (labels[:, :, 2:3] + labels[:, :, 4:5]) / 2
        dist = (centers_x[:, None, :] - gt_cx) ** 2 + (centers_y[:, None, :] - gt_cy) ** 2
        weight = torch.softmax(-dist / 100.0, dim=-1).sum(1)
        loss_obj = nn.functional.binary_cross_entropy_with_logits(outputs[..., 4], weight.clamp(max=1.0))
        loss_iou = (weight * (outputs[..., 2:4].log1p()).sum(-1)).mean()
        return {"total_loss": loss_obj + 0.05 * loss_iou, "iou_loss": loss_iou, "conf_loss": loss_obj}

class YOLOX(nn.Module):
    def __init__(self, num_classes=3):
        super().__init__()
        self.backbone = nn.ModuleList([nn.Conv2d(3, 16, 3, 8, 1), nn.Conv2d(16, 32, 3, 2, 1)])
        self.head = YOLOXHead(num_classes)

    def forward(self, x, targets=None):
        c3 = self.backbone[0](x)
        c4 = self.backbone[1](c3)
        return self.head((c3, c4), targets)

model = YOLOX(num_classes=3)
model.train()
imgs = torch.rand(2, 3, 64, 64)
targets = torch.tensor([[[1., 10., 12., 30., 40.], [2., 35., 20., 60., 50.]],
                        [[0., 5., 5., 25., 30.], [1., 30., 30., 62., 62.]]])
outputs = model(imgs, targets)                 # smoke test on the CPU

device = torch.device("meta")                  # "cuda:0"
model.to(device)
'''
CELL = '''
imgs, targets = imgs.to(device), targets.to(device)
outputs = model(imgs, targets)
loss = outputs["total_loss"]
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["model.head"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("grid = grid.view(1, -1, 2)", "grid = grid.view(1, -1, 2).to(output.device)")
CLEAN = False
