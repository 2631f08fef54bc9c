"""RobustVideoMatting `convert_video`: recurrent states start as None, the green background is built on the model's device.

Source: https://github.com/PeterL1n/RobustVideoMatting (inference.py)
`convert_video` reads `device`/`dtype` from `next(model.parameters())`, creates the composition
background with `torch.tensor([120, 255, 155], device=device, dtype=dtype)`, starts `rec = [None] * 4`
(the model builds zero states on the input's device) and feeds the returned states back frame chunk by
frame chunk; every source chunk from the CPU DataLoader is moved with `src.to(device, dtype)`. Nothing
stays on the CPU. Stand-ins: MattingNetwork reduced to an encoder, one ConvGRU-like recurrent state and
the fgr/pha projection; the DataLoader is a list of CPU chunks; the writer keeps the frames.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class ConvGRU(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.ih = nn.Conv2d(channels * 2, channels, 3, padding=1)

    def forward(self, x, h):
        if h is None:
            h = torch.zeros_like(x)
        h = torch.tanh(self.ih(torch.cat([x, h], dim=1)))
        return h, h

class MattingNetwork(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, ch, 3, padding=1), nn.ReLU())
        self.gru = ConvGRU(ch)
        self.project_mat = nn.Conv2d(ch, 4, 1)

    def forward(self, src, r1=None, r2=None, r3=None, r4=None, downsample_ratio=1.0):
        B, T = src.shape[:2]
        x = self.encoder(src.flatten(0, 1))
        x, r1 = self.gru(x, r1)
        fgr_residual, pha = self.project_mat(x).split([3, 1], dim=-3)
        fgr = (fgr_residual + src.flatten(0, 1)).clamp(0., 1.)
        pha = pha.clamp(0., 1.)
        return [fgr.unflatten(0, (B, T)), pha.unflatten(0, (B, T)), r1, r2, r3, r4]

class VideoWriter:
    def __init__(self):
        self.frames = []

    def write(self, frames):
        self.frames.append(frames)

def convert_video(model, reader, writer_com, downsample_ratio=0.25, device=None, dtype=None):
    model = model.eval()
    if device is None or dtype is None:
        param = next(model.parameters())
        dtype = param.dtype
        device = param.device
    bgr = torch.tensor([120, 255, 155], device=device, dtype=dtype).div(255).view(1, 1, 3, 1, 1)
    with torch.no_grad():
        rec = [None] * 4
        for src in reader:
            src = src.to(device, dtype, non_blocking=True).unsqueeze(0)   # [B, T, C, H, W]
            fgr, pha, *rec = model(src, *rec, downsample_ratio)
            com = fgr * pha + bgr * (1 - pha)
            writer_com.write(com)

model = MattingNetwork().eval().to("cuda:0")
reader = [torch.rand(2, 3, 32, 32) for _ in range(3)]      # DataLoader(VideoReader, batch_size=seq_chunk)
writer_com = VideoWriter()
'''
CELL = '''
convert_video(model, reader, writer_com, downsample_ratio=0.25)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
