"""GFPGAN on a second GPU (`--gfpgan-gpu 1`): facexlib's face detector still sends its input to the module-level `device` (cuda:0).

Source: https://github.com/Sygil-Dev/stable-diffusion/issues/114
The webui put GFPGAN/ESRGAN on GPU 1 and generation failed with "Expected all tensors to be on the
same device, but found at least two devices, cuda:0 and cuda:1! (... cudnn_convolution)". The
traceback led to facexlib: `retinaface.py` defines `device = torch.device('cuda' if
torch.cuda.is_available() else 'cpu')` at import and `detect_faces` does `image.to(device)` and
builds its mean tensor there, while `init_detection_model(..., device=...)` moved the network to
cuda:1. Fixed by facexlib PR 19 (a per-model device). RetinaFace's backbone/heads are small stand-ins
(with a BatchNorm so the simulated mismatch surfaces at the first layer).
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

# facexlib/detection/retinaface.py (module level)
device = torch.device("cuda:0")    # torch.device('cuda' if torch.cuda.is_available() else 'cpu')

class RetinaFace(nn.Module):
    def __init__(self, network_name='resnet50', half=False, phase='test'):
        super(RetinaFace, self).__init__()
        self.half_inference = half
        self.body = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU())
        self.ClassHead = nn.Conv2d(16, 4, 1)
        self.BboxHead = nn.Conv2d(16, 8, 1)
        self.to(device)

    def forward(self, inputs):
        out = self.body(inputs)
        n = out.shape[0]
        loc = self.BboxHead(out).permute(0, 2, 3, 1).reshape(n, -1, 4)
        conf = F.softmax(self.ClassHead(out).permute(0, 2, 3, 1).reshape(n, -1, 2), dim=-1)
        return loc, conf

    def detect_faces(self, image):
        image = image.to(device)
        mean_tensor = torch.tensor([[[[104.]], [[117.]], [[123.]]]]).to(device)
        image = image - mean_tensor
        return self(image)

def init_detection_model(model_name, half=False, device='cuda'):
    model = RetinaFace(network_name='resnet50', half=half)
    model.eval()
    model = model.to(device)
    return model

# webui: --extra-models-gpu --gfpgan-gpu 1  ->  GFPGANer(..., device=torch.device('cuda:1'))
gfpgan_device = torch.device("cuda:1")
face_helper_det = init_detection_model('retinaface_resnet50', half=False, device=gfpgan_device)
input_img = torch.rand(1, 3, 64, 64) * 255     # BGR image from the sampler, as a tensor
'''
CELL = '''
with torch.no_grad():
    bboxes = face_helper_det.detect_faces(input_img)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["face_helper_det"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        image = image.to(device)\n        mean_tensor = torch.tensor([[[[104.]], [[117.]], [[123.]]]]).to(device)\n",
                  "        device = next(self.parameters()).device\n        image = image.to(device)\n        mean_tensor = torch.tensor([[[[104.]], [[117.]], [[123.]]]]).to(device)\n")
CLEAN = False
