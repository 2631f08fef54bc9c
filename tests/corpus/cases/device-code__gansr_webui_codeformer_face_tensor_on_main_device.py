"""AUTOMATIC1111 webui CodeFormer on a Mac: the face restorer's net is on its own device, but the cropped face is sent to the main device.

Source: https://github.com/AUTOMATIC1111/stable-diffusion-webui/pull/448
"Fix for CodeFormer switching torch devices on metal systems": on mps machines the webui keeps
CodeFormer on the CPU (`devices.device_codeformer`), but `FaceRestorerCodeFormer.restore` still sent the
cropped face with `.to(devices.device)` (the mps device), so the net got an input on another device and
failed. The PR replaces the remaining `devices.device` calls with `devices.device_codeformer`. Here the
main device is simulated as cuda:0 and CodeFormer sits on the CPU; the CodeFormer net is a small stand-in
(conv stem + GroupNorm res-block + conv out), the face helper yields one pre-cropped face tensor.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
from types import SimpleNamespace

devices = SimpleNamespace(device=torch.device("cuda:0"),            # mps on the reporter's Mac
                          device_codeformer=torch.device("cpu"))     # CodeFormer kept on the CPU there

class ResBlock(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.norm1 = nn.GroupNorm(8, ch, eps=1e-6, affine=True)
        self.conv1 = nn.Conv2d(ch, ch, 3, 1, 1)
    def forward(self, x):
        return x + self.conv1(torch.nn.functional.silu(self.norm1(x)))

class CodeFormer(nn.Module):
    def __init__(self, nf=16):
        super().__init__()
        self.stem = nn.Conv2d(3, nf, 3, 1, 1)
        self.res = ResBlock(nf)
        self.out = nn.Conv2d(nf, 3, 3, 1, 1)
    def forward(self, x, w=0.5, adain=True):
        return (torch.tanh(self.out(self.res(self.stem(x)))), None)

def normalize(tensor, mean, std, inplace=False):
    mean = torch.as_tensor(mean, dtype=tensor.dtype, device=tensor.device)
    std = torch.as_tensor(std, dtype=tensor.dtype, device=tensor.device)
    return tensor.sub_(mean[:, None, None]).div_(std[:, None, None])

class FaceRestorerCodeFormer:
    def name(self):
        return "CodeFormer"

    def create_models(self):
        self.net = CodeFormer().to(devices.device_codeformer)
        self.net.eval()

    def restore(self, cropped_faces, w=None):
        restored = []
        for cropped_face_t in cropped_faces:           # img2tensor(cropped_face / 255., bgr2rgb=True, float32=True)
            normalize(cropped_face_t, (0.5, 0.5, 0.5), (0.5, 0.5, 0.5), inplace=True)
            cropped_face_t = cropped_face_t.unsqueeze(0).to(devices.device)
            with torch.no_grad():
                output = self.net(cropped_face_t, w=w if w is not None else 0.5, adain=True)[0]
            restored.append(output)
        return restored

face_restorer = FaceRestorerCodeFormer()
face_restorer.create_models()
cropped_faces = [torch.rand(3, 32, 32)]                # face_helper.cropped_faces (after alignment)
'''
CELL = '''
restored_faces = face_restorer.restore(cropped_faces, w=0.7)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["face_restorer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("cropped_face_t = cropped_face_t.unsqueeze(0).to(devices.device)",
                  "cropped_face_t = cropped_face_t.unsqueeze(0).to(devices.device_codeformer)")
CLEAN = False
