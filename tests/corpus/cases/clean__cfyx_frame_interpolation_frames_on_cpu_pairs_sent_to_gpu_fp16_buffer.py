"""Look-alike: ComfyUI-Frame-Interpolation keeps the frames and a float16 output buffer on the CPU, sends each frame pair to the GPU model and copies the middle frame back.

Source: https://github.com/Fannovel16/ComfyUI-Frame-Interpolation (vfi_utils.py `_generic_frame_loop`:
`output_frames = torch.zeros(multiplier*frames.shape[0], *frames.shape[1:], dtype=dtype, device="cpu")`,
`return_middle_frame_function(frame0.to(DEVICE), frame1.to(DEVICE), timestep, ...).detach().cpu().to(dtype=dtype)`)
A GPU RIFE model, CPU float32 frames and a CPU float16 result buffer: the loop moves each pair to DEVICE
and writes the detached CPU result into the buffer, keeping VRAM flat for long clips. The cell runs.
Stand-in: the sequential (batch_size=1, use_timestep) path of the loop (same names) and a tiny IFNet.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

DEVICE = torch.device("cuda:0")                     # vfi_utils: DEVICE = get_torch_device()

class IFNet(nn.Module):                             # RIFE stand-in
    def __init__(self):
        super().__init__()
        self.fuse = nn.Conv2d(7, 3, 3, padding=1)
    def forward(self, img0, img1, timestep):
        t = torch.full_like(img0[:, :1], timestep)
        return torch.sigmoid(self.fuse(torch.cat([img0, img1, t], dim=1)))

def return_middle_frame(frame_0, frame_1, timestep, model):
    return model(frame_0, frame_1, timestep)

def _generic_frame_loop(frames, multiplier, return_middle_frame_function, *return_middle_frame_function_args, dtype=torch.float16):
    output_frames = torch.zeros(multiplier*frames.shape[0], *frames.shape[1:], dtype=dtype, device="cpu")
    out_len = 0
    for frame_itr in range(len(frames) - 1):
        frame0 = frames[frame_itr:frame_itr+1]
        frame1 = frames[frame_itr+1:frame_itr+2]
        output_frames[out_len] = frame0
        out_len += 1
        frame0_fp = frame0.to(dtype=torch.float32)
        frame1_fp = frame1.to(dtype=torch.float32)
        for middle_i in range(1, multiplier):
            timestep = middle_i / multiplier
            middle_frame = return_middle_frame_function(
                frame0_fp.to(DEVICE), frame1_fp.to(DEVICE), timestep, *return_middle_frame_function_args
            ).detach().cpu().to(dtype=dtype)
            output_frames[out_len] = middle_frame
            out_len += 1
    output_frames[out_len] = frames[-1:]
    out_len += 1
    return output_frames[:out_len]

interpolation_model = IFNet().to(DEVICE).eval()
frames = torch.rand(4, 3, 32, 32)                   # IMAGE batch from a video loader, permuted to BCHW (CPU)
'''
CELL = '''
with torch.no_grad():
    out = _generic_frame_loop(frames, 2, return_middle_frame, interpolation_model)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
