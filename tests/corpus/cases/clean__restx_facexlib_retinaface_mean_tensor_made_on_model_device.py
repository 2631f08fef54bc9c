"""facexlib RetinaFace (after the per-model device fix): `mean_tensor` is a plain attribute, but made on `self.device`.

Source: https://github.com/xinntao/facexlib/blob/master/facexlib/detection/retinaface.py
GFPGAN/CodeFormer build the face detector with `init_detection_model('retinaface_resnet50',
device=device)`; `RetinaFace.__init__` stores `self.device` and creates `self.mean_tensor =
torch.tensor([[[[104.]], [[117.]], [[123.]]]], device=self.device)` (not a buffer, so `.to()` would not
move it), then `self.to(self.device)`. `detect_faces` sends the CPU image to `self.device` and
subtracts the mean there. With the detector on cuda:1 everything meets on cuda:1. Look-alike of the
module-level-`device` bug; it runs.
Stand-ins: RetinaFace's body and heads reduced to three convs (with a BatchNorm), detect_faces up to
the network outputs; the image tensor comes from `torch.from_numpy(...).permute(2, 0, 1)`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class RetinaFace(nn.Module):
    def __init__(self, network_name='resnet50', half=False, phase='test', device=None):
        self.device = torch.device('cuda' if torch.cuda.is_available() else 'cpu') if device is None else device
        super(RetinaFace, self).__init__()
        self.half_inference = half
        self.phase = phase
        self.mean_tensor = torch.tensor([[[[104.]], [[117.]], [[123.]]]], device=self.device)
        self.body = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU())
        self.ClassHead = nn.Conv2d(16, 4, 1)
        self.BboxHead = nn.Conv2d(16, 8, 1)
        self.to(self.device)

    def forward(self, inputs):
        out = self.body(inputs)
        n = out.shape[0]
        loc = self.BboxHead(out).permute(0, 2, 3, 1).reshape(n, -1, 4)
        conf = F.softmax(self.ClassHead(out).permute(0, 2, 3, 1).reshape(n, -1, 2), dim=-1)
        return loc, conf

    def detect_faces(self, image):
        image = image.to(self.device)
        image = image - self.mean_tensor
        return self(image)

def init_detection_model(model_name, half=False, device='cuda'):
    model = RetinaFace(network_name='resnet50', half=half, device=device)
    model.eval()
    model = model.to(device)
    return model

device = torch.device('cuda:1')                   # GFPGANer(..., device=...) on the second GPU
face_det = init_detection_model('retinaface_resnet50', half=False, device=device)
img = np.random.RandomState(0).randint(0, 256, (64, 64, 3)).astype(np.uint8)      # cv2.imread(...), BGR
'''
CELL = '''
with torch.no_grad():
    image = torch.from_numpy(img.astype('float32')).permute(2, 0, 1).unsqueeze(0)
    loc, conf = face_det.detect_faces(image)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
