"""Look-alike: OpenPCDet's global_rotation feeds float64 numpy angles and boxes into a torch rotation that casts to float.

Source: https://github.com/open-mmlab/OpenPCDet/blob/master/pcdet/datasets/augmentor/augmentor_utils.py
(`global_rotation`) and pcdet/utils/common_utils.py (`check_numpy_to_torch`, `rotate_points_along_z`).
The augmentation draws `noise_rotation` with `np.random.uniform` (float64), the KITTI gt boxes are a
float64 array and the LiDAR points float32. `rotate_points_along_z` turns every numpy input into a
float32 tensor (`torch.from_numpy(x).float()`), builds the rotation matrix with `.float()` and hands
numpy back, so float64 inputs next to torch matmuls are handled on purpose; the cell runs.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch

def check_numpy_to_torch(x):
    if isinstance(x, np.ndarray):
        return torch.from_numpy(x).float(), True
    return x, False

def rotate_points_along_z(points, angle):
    """
    Args:
        points: (B, N, 3 + C)
        angle: (B), angle along z-axis, angle increases x ==> y
    """
    points, is_numpy = check_numpy_to_torch(points)
    angle, _ = check_numpy_to_torch(angle)

    cosa = torch.cos(angle)
    sina = torch.sin(angle)
    zeros = angle.new_zeros(points.shape[0])
    ones = angle.new_ones(points.shape[0])
    rot_matrix = torch.stack((
        cosa,  sina, zeros,
        -sina, cosa, zeros,
        zeros, zeros, ones
    ), dim=1).view(-1, 3, 3).float()
    points_rot = torch.matmul(points[:, :, 0:3], rot_matrix)
    points_rot = torch.cat((points_rot, points[:, :, 3:]), dim=-1)
    return points_rot.numpy() if is_numpy else points_rot

def global_rotation(gt_boxes, points, rot_range, return_rot=False, noise_rotation=None):
    if noise_rotation is None:
        noise_rotation = np.random.uniform(rot_range[0], rot_range[1])
    points = rotate_points_along_z(points[np.newaxis, :, :], np.array([noise_rotation]))[0]
    gt_boxes[:, 0:3] = rotate_points_along_z(gt_boxes[np.newaxis, :, 0:3], np.array([noise_rotation]))[0]
    gt_boxes[:, 6] += noise_rotation
    if gt_boxes.shape[1] > 7:
        gt_boxes[:, 7:9] = rotate_points_along_z(
            np.hstack((gt_boxes[:, 7:9], np.zeros((gt_boxes.shape[0], 1))))[np.newaxis, :, :],
            np.array([noise_rotation])
        )[0][:, 0:2]
    if return_rot:
        return gt_boxes, points, noise_rotation
    return gt_boxes, points

rng = np.random.default_rng(0)
points = rng.normal(size=(16384, 4)).astype(np.float32)      # KITTI .bin sweep: x, y, z, intensity
gt_boxes = np.concatenate([rng.uniform(-20, 20, (6, 3)), rng.uniform(0.5, 4, (6, 3)),
                           rng.uniform(-np.pi, np.pi, (6, 1))], axis=1)   # float64 (N, 7)
'''
CELL = '''
gt_boxes, points = global_rotation(gt_boxes, points, rot_range=[-0.78539816, 0.78539816])
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
