"""Look-alike: LivePortrait computes the lip-close ratios in numpy (float64), turns them into float32 tensors on the wrapper's device, and feeds them with the keypoints to the lip retargeting MLP.

Source: https://github.com/KwaiVGI/LivePortrait (src/live_portrait_wrapper.py, calc_combined_lip_ratio / retarget_lip; src/utils/helper.py concat_feat)
`calc_combined_lip_ratio` does `c_s_lip_tensor = torch.from_numpy(c_s_lip).float().to(self.device)` and
`c_d_lip_i_tensor = torch.Tensor([c_d_lip_i[0]]).to(self.device).reshape(1, 1)`, concatenates them to a
1x2 tensor, and `retarget_lip(x_s, combined_lip_ratio_tensor)` concatenates the flattened source
keypoints with it for `stitching_retargeting_module['lip']`. Numpy float64 in, explicit `.float()` and
`.to(self.device)`: everything meets on the GPU in float32.
Stand-ins: the retargeting MLP as two linears for 21 keypoints, `calc_lip_close_ratio` from
retargeting_utils on a 203-point landmark array, `x_s` as given source keypoints on the device.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

def calculate_distance_ratio(lmk: np.ndarray, idx1: int, idx2: int, idx3: int, idx4: int, eps: float = 1e-6) -> np.ndarray:
    return (np.linalg.norm(lmk[:, idx1] - lmk[:, idx2], axis=1, keepdims=True) /
            (np.linalg.norm(lmk[:, idx3] - lmk[:, idx4], axis=1, keepdims=True) + eps))

def calc_lip_close_ratio(lmk: np.ndarray) -> np.ndarray:      # src/utils/retargeting_utils.py
    return calculate_distance_ratio(lmk, 90, 102, 48, 66)

def concat_feat(kp_source, kp_driving):                      # src/utils/helper.py
    bs_src = kp_source.shape[0]
    bs_dri = kp_driving.shape[0]
    assert bs_src == bs_dri, 'batch size must be equal'
    feat = torch.cat([kp_source.view(bs_src, -1), kp_driving.view(bs_dri, -1)], dim=1)
    return feat

class StitchingRetargetingNetwork(nn.Module):                # src/modules/stitching_retargeting_network.py (reduced)
    def __init__(self, input_size, hidden_sizes, output_size):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(input_size, hidden_sizes[0]), nn.ReLU(inplace=True),
                                 nn.Linear(hidden_sizes[0], output_size))
    def forward(self, x):
        return self.mlp(x)

class LivePortraitWrapper(object):                           # src/live_portrait_wrapper.py (retargeting part)
    def __init__(self, device_id=0, flag_force_cpu=False):
        self.device = 'cpu' if flag_force_cpu else 'cuda:' + str(device_id)
        lip = StitchingRetargetingNetwork(21 * 3 + 2, [32], 21 * 3)
        self.stitching_retargeting_module = {'lip': lip.to(self.device).eval()}

    def retarget_lip(self, kp_source: torch.Tensor, lip_close_ratio: torch.Tensor) -> torch.Tensor:
        feat_lip = concat_feat(kp_source, lip_close_ratio)
        with torch.no_grad():
            delta = self.stitching_retargeting_module['lip'](feat_lip)
        return delta

    def calc_combined_lip_ratio(self, c_d_lip_i, source_lmk):
        c_s_lip = calc_lip_close_ratio(source_lmk[None])
        c_s_lip_tensor = torch.from_numpy(c_s_lip).float().to(self.device)
        c_d_lip_i_tensor = torch.Tensor([c_d_lip_i[0]]).to(self.device).reshape(1, 1)  # 1x1
        combined_lip_ratio_tensor = torch.cat([c_s_lip_tensor, c_d_lip_i_tensor], dim=1)  # 1x2
        return combined_lip_ratio_tensor

live_portrait_wrapper = LivePortraitWrapper(device_id=0)
rng = np.random.default_rng(0)
source_lmk = rng.random((203, 2)) * 256                      # crop_info['lmk_crop'] (float64)
c_d_lip_lst = [np.array([0.42]), np.array([0.05])]           # driving lip ratios from the template
x_s = torch.randn(1, 21, 3, device='cuda:0')                 # transform_keypoint(x_s_info)
'''
CELL = '''
c_d_lip_i = c_d_lip_lst[0]
combined_lip_ratio_tensor = live_portrait_wrapper.calc_combined_lip_ratio(c_d_lip_i, source_lmk)
lip_delta = live_portrait_wrapper.retarget_lip(x_s, combined_lip_ratio_tensor)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
