"""torch.bmm of a float64 camera rotation (from numpy calibration) with float32 image coordinates.

Source: https://github.com/CHUNYUWANG/imu-human-pose-pytorch/issues/8
`torch.bmm(inv_cam_extri_R, coords_img_frame_all_depth)` raised "expected scalar type Double but
found Float": the camera matrices were float64 (numpy), the coordinates float32. The user tried
making R float64 again, which changes nothing: the float32 side must match, or R be float32.
(On this CPU build the same bmm words it "expected scalar type Float but found Double".)
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch

batch = 4
R_np = np.stack([np.eye(3) for _ in range(batch)])
inv_cam_extri_R = torch.from_numpy(R_np)
inv_cam_extri_T = torch.zeros(batch, 3, 1, dtype=torch.float32)
coords_img_frame_all_depth = torch.rand(batch, 3, 64)
'''
CELL = '''
coords_global = torch.bmm(inv_cam_extri_R, coords_img_frame_all_depth) + inv_cam_extri_T
'''
EXPECT_ERROR = "expected scalar type Float but found Double"
CULPRITS = ["inv_cam_extri_R"]
FIX = "namespace"
REFERENCE_FIX = '''
inv_cam_extri_R = inv_cam_extri_R.float()
'''
REFERENCE_EDIT = None
CLEAN = False
