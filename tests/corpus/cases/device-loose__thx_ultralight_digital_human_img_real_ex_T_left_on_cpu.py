"""Ultralight-Digital-Human inference: the reference crop `img_real_ex_T` is never moved to the GPU, the masked crop is, and `torch.cat` mixes them.

Source: https://github.com/anliyuan/Ultralight-Digital-Human/issues/156
`python inference.py --asr hubert ...` failed at `img_concat_T = torch.cat([img_real_ex_T, img_masked_T],
axis=0)[None]` with "Expected all tensors to be on the same device, but found at least two devices, cpu
and cuda:0! (when checking argument for argument tensors in method wrapper_cat)". The maintainer answered
that the latest version fixes it; that commit (ff0454d, "添加注释，优化代码") changes
`img_real_ex_T = torch.from_numpy(img_real_ex / 255.0)` to `... .to(device)`, like `img_masked_T`.
Stand-in: the lip-sync `Model(6, mode)` of unet.py reduced to two down convs, a hubert audio conv branch
and one up conv on a 32x32 crop (168/160 px in the repo); one frame of the inference loop, with the crop
preparation of the frame in the earlier cell; the meta device plays cuda.
"""

SIM = "meta"
FAMILY = "device-loose"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

mode = "hubert"
device = torch.device("meta")   # 'cuda' if torch.cuda.is_available() else 'cpu'

class AudioConvHubert(nn.Module):           # unet.py (reduced)
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU(),
                                  nn.Conv2d(32, 32, 3, stride=2, padding=1), nn.ReLU())
    def forward(self, x):
        return self.conv(x)

class Model(nn.Module):                     # unet.py (reduced)
    def __init__(self, n_channels=6, mode='hubert'):
        super().__init__()
        self.audio_model = AudioConvHubert()
        self.inc = nn.Sequential(nn.Conv2d(n_channels, 8, 3, padding=1), nn.ReLU())
        self.down1 = nn.Sequential(nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU())
        self.down2 = nn.Sequential(nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU())
        self.fuse = nn.Conv2d(64, 32, 1)
        self.up = nn.ConvTranspose2d(32, 8, 4, stride=4)
        self.outc = nn.Conv2d(8, 3, 1)

    def forward(self, x, audio_feat):
        x1 = self.inc(x)
        x3 = self.down2(self.down1(x1))
        audio_feat = self.audio_model(audio_feat)
        x = self.fuse(torch.cat([x3, audio_feat], axis=1))
        return torch.sigmoid(self.outc(self.up(x)))

def get_audio_features(features, index):
    left = index - 4
    right = index + 4
    pad_left = 0
    pad_right = 0
    if left < 0:
        pad_left = -left
        left = 0
    if right > features.shape[0]:
        pad_right = right - features.shape[0]
        right = features.shape[0]
    auds = torch.from_numpy(features[left:right])
    if pad_left > 0:
        auds = torch.cat([torch.zeros_like(auds[:pad_left]), auds], dim=0)
    if pad_right > 0:
        auds = torch.cat([auds, torch.zeros_like(auds[:pad_right])], dim=0)
    return auds

net = Model(6, mode).to(device)
# net.load_state_dict(torch.load(checkpoint, map_location=device))
net.eval()

audio_feats = np.random.default_rng(0).standard_normal((50, 2, 1024)).astype(np.float32)  # np.load(audio_feat_path)
i = 10
crop_img = np.random.default_rng(1).integers(0, 256, (40, 40, 3)).astype(np.uint8)   # cv2.resize(crop_img, (168, 168))
img_real_ex = crop_img[4:36, 4:36].copy()
img_real_ex_ori = img_real_ex.copy()
img_masked = img_real_ex_ori.copy()
img_masked[1:30, 1:31] = 0                  # cv2.rectangle(img_real_ex_ori, (5,5,150,145), (0,0,0), -1)

img_masked = img_masked.transpose(2, 0, 1).astype(np.float32)
img_real_ex = img_real_ex.transpose(2, 0, 1).astype(np.float32)

img_real_ex_T = torch.from_numpy(img_real_ex / 255.0)
img_masked_T = torch.from_numpy(img_masked / 255.0).to(device)
'''
CELL = '''
img_concat_T = torch.cat([img_real_ex_T, img_masked_T], axis=0)[None]

audio_feat = get_audio_features(audio_feats, i)
if mode == "hubert":
    audio_feat = audio_feat.reshape(16, 32, 32)
audio_feat = audio_feat[None]
audio_feat = audio_feat.to(device)
img_concat_T = img_concat_T.to(device)

with torch.no_grad():
    pred = net(img_concat_T, audio_feat)[0]
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["img_real_ex_T"]
FIX = "namespace"
REFERENCE_FIX = '''
img_real_ex_T = img_real_ex_T.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
