"""mmdetection RepPoints trained on `gpu_ids = [1]`: the point generator's default `device='cuda'` builds the points on cuda:0.

Source: https://github.com/open-mmlab/mmdetection/issues/3828
"RuntimeError: expected device cuda:1 but got device cuda:0" training a RepPoints config with
`gpu_ids = [1]`. The model is wrapped as `MMDataParallel(model.cuda(cfg.gpu_ids[0]), device_ids=[1])`,
but `RepPointsHead.get_points` calls `self.point_generators[i].grid_points(featmap_sizes[i], stride)`
without a device, and `PointGenerator.grid_points(..., device='cuda')` allocates on the current CUDA
device, cuda:0; the points then meet the head's cuda:1 predictions (later mmdetection passes the
features' device through `get_points`). Stand-in: PointGenerator and a RepPoints head reduced to
the init-stage point conversion on two levels, inside a small detector; no assigner or losses.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
import torch.nn as nn

class PointGenerator(object):
    def _meshgrid(self, x, y, row_major=True):
        xx = x.repeat(len(y))
        yy = y.view(-1, 1).repeat(1, len(x)).view(-1)
        return (xx, yy) if row_major else (yy, xx)

    def grid_points(self, featmap_size, stride=16, device='cuda:0'):   # device='cuda': the current device, cuda:0
        feat_h, feat_w = featmap_size
        shift_x = torch.arange(0., feat_w, device=device) * stride
        shift_y = torch.arange(0., feat_h, device=device) * stride
        shift_xx, shift_yy = self._meshgrid(shift_x, shift_y)
        stride = shift_x.new_full((shift_xx.shape[0], ), stride)
        shifts = torch.stack([shift_xx, shift_yy, stride], dim=-1)
        return shifts.to(device)

class RepPointsHead(nn.Module):
    def __init__(self, in_channels=16, num_points=9, point_strides=(8, 16)):
        super().__init__()
        self.num_points, self.point_strides = num_points, point_strides
        self.point_generators = [PointGenerator() for _ in point_strides]
        self.reppoints_pts_init_out = nn.Conv2d(in_channels, 2 * num_points, 1)

    def forward(self, feats):
        return [self.reppoints_pts_init_out(x) for x in feats]

    def get_points(self, featmap_sizes, img_metas):
        multi_level_points = []
        for i in range(len(featmap_sizes)):
            points = self.point_generators[i].grid_points(featmap_sizes[i], self.point_strides[i])
            multi_level_points.append(points)
        return [[point.clone() for point in multi_level_points] for _ in range(len(img_metas))]

    def offset_to_pts(self, center_list, pred_list):
        pts_list = []
        for i_lvl in range(len(self.point_strides)):
            pts_lvl = []
            for i_img in range(len(center_list)):
                pts_center, _ = center_list[i_img][i_lvl].split([2, 1], dim=-1)
                pts_center = pts_center.repeat(1, self.num_points)
                pts_shift = pred_list[i_lvl].unbind(0)[i_img]
                yx_pts_shift = pts_shift.permute(1, 2, 0).reshape(-1, 2 * self.num_points)
                pts = yx_pts_shift * self.point_strides[i_lvl] + pts_center
                pts_lvl.append(pts)
            pts_lvl = torch.stack(pts_lvl, 0)
            pts_list.append(pts_lvl)
        return pts_list

    def loss(self, pts_preds_init, img_metas):
        featmap_sizes = [featmap.size()[-2:] for featmap in pts_preds_init]
        center_list = self.get_points(featmap_sizes, img_metas)
        pts_coordinate_preds_init = self.offset_to_pts(center_list, pts_preds_init)
        return {'num_pts': sum(p.shape[1] for p in pts_coordinate_preds_init)}

class RepPointsDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.ModuleList([nn.Conv2d(3, 16, 3, 8, 1), nn.Conv2d(16, 16, 3, 2, 1)])
        self.bbox_head = RepPointsHead()

    def extract_feat(self, img):
        c1 = self.backbone[0](img)
        return [c1, self.backbone[1](c1)]

    def forward_train(self, img, img_metas):
        x = self.extract_feat(img)
        outs = self.bbox_head(x)
        return self.bbox_head.loss(outs, img_metas)

cfg_gpu_ids = [1]                                  # gpu_ids = [1] in the config
model = RepPointsDetector().to(f'cuda:{cfg_gpu_ids[0]}')   # MMDataParallel(model.cuda(cfg.gpu_ids[0]), device_ids=cfg.gpu_ids)
img = torch.rand(2, 3, 64, 64).to('cuda:1')        # the batch scattered to device_ids[0]
img_metas = [{'img_shape': (64, 64, 3)}, {'img_shape': (64, 64, 3)}]
'''
CELL = '''
losses = model.forward_train(img, img_metas)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "expected device cuda:1 but got device cuda:0")
CULPRITS = ["model.bbox_head"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            points = self.point_generators[i].grid_points(featmap_sizes[i], self.point_strides[i])",
                  "            points = self.point_generators[i].grid_points(featmap_sizes[i], self.point_strides[i], device=next(self.parameters()).device)")
CLEAN = False
