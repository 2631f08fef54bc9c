"""Video-Inference (SOF-VSR video super-resolution) with --fp16: the network is halved, the stacked LR frames are still float32.

Source: https://github.com/joeyballentine/Video-Inference/issues/4
"fp16 mode?": testing the new fp16 branch with `--fp16`, `run.py` -> `model.inference(LR_list,
args)` failed in `SOFVSR_model.py` at `_, _, _, fake_H = self.model(LR.to(self.device))`, inside
the optical-flow reconstruction net (`optical_flow_L1 = self.RNN2(self.RNN1(input_L1))` in
SOFVSR_arch.py): the branch converts the network to half, but `inference` builds `LR` with
`np2tensor` (float32) and only moves it to the device. Fixed when fp16 support was finished (PR #5).
Stand-in: SOFVSRModel.inference for RGB (only_y=False) input without chopping, a small SOFVSR
(OFR conv stack + SR head); the cv2 conversions and numpy output are left out.
"""

SIM = "fake_cuda"
FAMILY = "dtype-input"
SETUP = '''
from types import SimpleNamespace
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

def np2tensor(img, bgr2rgb=True, add_batch=True):
    img = np.ascontiguousarray(img.transpose(2, 0, 1))
    tensor = torch.from_numpy(img).float() / 255.0
    return tensor.unsqueeze(0) if add_batch else tensor

class OFRnet(nn.Module):
    def __init__(self, upscale_factor=4, in_ch=6, channels=32):
        super().__init__()
        self.RNN1 = nn.Sequential(nn.Conv2d(in_ch + 2, channels, 3, 1, 1, bias=True), nn.LeakyReLU(0.1, inplace=True))
        self.RNN2 = nn.Sequential(nn.Conv2d(channels, 2, 3, 1, 1, bias=True), nn.Tanh())

    def __call__(self, x):
        b, c, h, w = x.size()
        input_L1 = torch.cat((x, x.new_zeros(b, 2, h, w)), 1)
        optical_flow_L1 = self.RNN2(self.RNN1(input_L1))
        return optical_flow_L1, optical_flow_L1, optical_flow_L1

class SOFVSR(nn.Module):
    def __init__(self, scale=4, n_frames=3, channels=32, img_ch=3):
        super().__init__()
        self.scale, self.n_frames = scale, n_frames
        self.OFR = OFRnet(upscale_factor=scale, in_ch=2 * img_ch, channels=channels)
        self.SR = nn.Sequential(nn.Conv2d(n_frames * img_ch + 2 * (n_frames - 1), channels, 3, 1, 1), nn.ReLU(),
                                nn.Conv2d(channels, img_ch * scale * scale, 3, 1, 1), nn.PixelShuffle(scale))

    def forward(self, x):
        b, n_frames, c, h, w = x.size()
        idx_center = (n_frames - 1) // 2
        input = []
        for idx_frame in range(n_frames):
            if idx_frame != idx_center:
                input.append(torch.cat((x[:, idx_center, :, :, :], x[:, idx_frame, :, :, :]), 1))
        optical_flow_L1, optical_flow_L2, optical_flow_L3 = self.OFR(torch.cat(input, 0))
        flows = optical_flow_L1.view(n_frames - 1, b, 2, h, w).transpose(0, 1).reshape(b, -1, h, w)
        sr = self.SR(torch.cat((x.reshape(b, -1, h, w), flows), 1))
        return optical_flow_L1, optical_flow_L2, optical_flow_L3, sr

class SOFVSR_RRDB_Model:
    def __init__(self, only_y=False, num_frames=3, scale=4, img_ch=3, device=None):
        self.device = device
        self.model = SOFVSR(scale=scale, n_frames=num_frames, img_ch=img_ch).eval()
        self.only_y = only_y
        self.num_frames = num_frames
        self.scale = scale

    def inference(self, LR_list, args):
        h_LR, w_LR, c = LR_list[0].shape
        t = self.num_frames
        LR = np.asarray([np.asarray(LT) for LT in LR_list])  # numpy, [T,H,W,C]
        LR = LR.transpose(1, 2, 3, 0).reshape(h_LR, w_LR, -1)  # numpy, [Hl',Wl',CT]
        LR = np2tensor(LR, bgr2rgb=True, add_batch=False)
        LR = LR.view(c, t, h_LR, w_LR)  # Tensor, [C,T,H,W]
        LR = LR.transpose(0, 1)  # Tensor, [T,C,H,W]
        LR = LR.unsqueeze(0)
        with torch.no_grad():
            self.model.to(self.device)
            _, _, _, fake_H = self.model(LR.to(self.device))
        SR = fake_H.detach()[0].float()
        return SR

args = SimpleNamespace(fp16=True, denoise=False, chop_forward=False, scale=4)
device = torch.device("cuda:0")
model = SOFVSR_RRDB_Model(only_y=False, num_frames=3, scale=4, img_ch=3, device=device)
if args.fp16:
    model.model = model.model.half()
video_frames = [np.random.randint(0, 256, (36, 48, 3), dtype=np.uint8) for _ in range(3)]  # BGR frames
'''
CELL = '''
sr_img = model.inference(video_frames, args)
'''
EXPECT_ERROR = ("should be the same", "expected scalar type", "must have the same dtype")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "_, _, _, fake_H = self.model(LR.to(self.device))",
    "_, _, _, fake_H = self.model(LR.to(self.device).half() if args.fp16 else LR.to(self.device))",
)
CLEAN = False
