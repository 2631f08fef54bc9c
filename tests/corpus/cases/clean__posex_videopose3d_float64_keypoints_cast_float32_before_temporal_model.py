"""Look-alike: VideoPose3D feeds float64 2D keypoints from numpy to its float32 TemporalModel, cast with `astype('float32')` first.

Source: https://github.com/facebookresearch/VideoPose3D/blob/main/run.py
The 2D detections are loaded with numpy and normalized with `normalize_screen_coordinates`
(`X / w * 2 - [1, h / w]`, which yields float64), and the generators return float64 numpy batches.
`evaluate()` converts every batch with `torch.from_numpy(batch_2d.astype('float32'))` before
`model_pos(inputs_2d)`, so the Conv1d model sees float32: a numpy-born tensor next to a float32
model that is right. Stand-in: a two-block TemporalModel (expand conv, one dilated block, shrink
conv) as in `common/model.py`; the generator yields one unchunked padded sequence; the GPU move
(`if torch.cuda.is_available()`) is a no-op on this CPU run.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

def normalize_screen_coordinates(X, w, h):
    assert X.shape[-1] == 2
    # Normalize so that [0, w] is mapped to [-1, 1], while preserving the aspect ratio
    return X / w * 2 - [1, h / w]

class TemporalModel(nn.Module):
    def __init__(self, num_joints_in, in_features, num_joints_out, filter_widths=(3, 3), channels=64):
        super().__init__()
        self.num_joints_out = num_joints_out
        self.expand_conv = nn.Conv1d(num_joints_in * in_features, channels, filter_widths[0], bias=False)
        self.expand_bn = nn.BatchNorm1d(channels, momentum=0.1)
        self.layers_conv = nn.ModuleList([nn.Conv1d(channels, channels, filter_widths[1], dilation=filter_widths[0], bias=False),
                                          nn.Conv1d(channels, channels, 1, bias=False)])
        self.layers_bn = nn.ModuleList([nn.BatchNorm1d(channels, momentum=0.1), nn.BatchNorm1d(channels, momentum=0.1)])
        self.shrink = nn.Conv1d(channels, num_joints_out * 3, 1)
        self.relu = nn.ReLU(inplace=True)
        self.pad = [(filter_widths[1] - 1) * filter_widths[0] // 2]

    def forward(self, x):
        sz = x.shape[:3]
        x = x.view(x.shape[0], x.shape[1], -1)
        x = x.permute(0, 2, 1)
        x = self.relu(self.expand_bn(self.expand_conv(x)))
        res = x[:, :, self.pad[0]: x.shape[2] - self.pad[0]]
        x = self.relu(self.layers_bn[0](self.layers_conv[0](x)))
        x = res + self.relu(self.layers_bn[1](self.layers_conv[1](x)))
        x = self.shrink(x)
        x = x.permute(0, 2, 1)
        x = x.view(sz[0], -1, self.num_joints_out, 3)
        return x

model_pos = TemporalModel(17, 2, 17, filter_widths=(3, 3), channels=64)
model_pos.eval()
receptive_field = 9
pad = (receptive_field - 1) // 2

rng = np.random.RandomState(0)
keypoints = rng.uniform(0, 1000, size=(50, 17, 2)).astype(np.float32)      # detections (npz)
kps = normalize_screen_coordinates(keypoints, w=1000, h=1002)              # float64 from here on
batch_2d = np.expand_dims(np.pad(kps, ((pad, pad), (0, 0), (0, 0)), 'edge'), axis=0)
'''
CELL = '''
with torch.no_grad():
    model_pos.eval()
    inputs_2d = torch.from_numpy(batch_2d.astype('float32'))
    if torch.cuda.is_available():
        inputs_2d = inputs_2d.cuda()
    predicted_3d_pos = model_pos(inputs_2d)
print(batch_2d.dtype, inputs_2d.dtype, predicted_3d_pos.shape)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
