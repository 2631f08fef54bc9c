"""Look-alike: mmdet3d's CenterPoint head receives the 3D gt boxes on the CPU and moves them in get_targets_single.

Source: https://github.com/open-mmlab/mmdetection3d/blob/main/mmdet3d/models/dense_heads/centerpoint_head.py
The data pipeline keeps `gt_bboxes_3d` (a `LiDARInstance3DBoxes`) on the CPU while the labels and
features go to the GPU; `CenterHead.get_targets_single` starts with `device = gt_labels_3d.device`
and `gt_bboxes_3d = torch.cat((gt_bboxes_3d.gravity_center, gt_bboxes_3d.tensor[:, 3:]),
dim=1).to(device)`. A CPU box structure next to cuda labels, on purpose, and the cell runs.
Stand-ins: the box class reduced to `tensor`/`gravity_center`; the target assignment to the
regression targets of every box (no heatmap drawing).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch

class LiDARInstance3DBoxes:
    def __init__(self, tensor, box_dim=9):
        self.tensor = tensor
        self.box_dim = box_dim

    @property
    def gravity_center(self):
        bottom_center = self.tensor[:, :3]
        return torch.cat([bottom_center[:, :2], bottom_center[:, 2:3] + self.tensor[:, 5:6] * 0.5], dim=1)

class CenterHead:
    def __init__(self, voxel_size=(0.1, 0.1), pc_range=(-51.2, -51.2), out_size_factor=8):
        self.train_cfg = dict(voxel_size=voxel_size, point_cloud_range=pc_range,
                              out_size_factor=out_size_factor)

    def get_targets_single(self, gt_bboxes_3d, gt_labels_3d):
        device = gt_labels_3d.device
        gt_bboxes_3d = torch.cat(
            (gt_bboxes_3d.gravity_center, gt_bboxes_3d.tensor[:, 3:]),
            dim=1).to(device)
        voxel_size = self.train_cfg['voxel_size']
        pc_range = self.train_cfg['point_cloud_range']
        osf = self.train_cfg['out_size_factor']
        x = (gt_bboxes_3d[:, 0] - pc_range[0]) / voxel_size[0] / osf
        y = (gt_bboxes_3d[:, 1] - pc_range[1]) / voxel_size[1] / osf
        center = torch.stack([x, y], dim=1)
        center_int = center.to(torch.int32)
        rot = gt_bboxes_3d[:, 6]
        anno_box = torch.cat([
            center - center_int.float(), gt_bboxes_3d[:, 2:3], gt_bboxes_3d[:, 3:6].log(),
            torch.sin(rot).unsqueeze(1), torch.cos(rot).unsqueeze(1), gt_bboxes_3d[:, 7:9]], dim=1)
        return anno_box, center_int, gt_labels_3d

bbox_head = CenterHead()
device = torch.device("cuda:0")
boxes = torch.rand(12, 9)
boxes[:, :2] = boxes[:, :2] * 80 - 40
boxes[:, 3:6] += 0.5
gt_bboxes_3d = LiDARInstance3DBoxes(boxes)                 # cpu_only in the data container
gt_labels_3d = torch.randint(0, 10, (12,)).to(device)
'''
CELL = '''
anno_box, center_int, labels = bbox_head.get_targets_single(gt_bboxes_3d, gt_labels_3d)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
