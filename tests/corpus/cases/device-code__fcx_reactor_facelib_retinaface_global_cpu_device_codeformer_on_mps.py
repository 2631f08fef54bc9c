"""ReActor face restore with CodeFormer on Apple Silicon: the bundled RetinaFace sends the image to a module-global `device` (cpu) while the detector weights are on `mps`.

Source: https://github.com/Gourieff/comfyui-reactor-node/issues/77
On macOS (M2) the ReActor node worked until a face-restore model (CodeFormer) was enabled; then it raised
"RuntimeError: slow_conv2d_forward_mps: input(device='cpu') and weight(device=mps:0') must be on the same device".
The face-restoration helper builds its RetinaFace detector with `init_detection_model(..., device=device)`,
which moves the weights to `mps`, but the node's bundled `r_facelib/.../retinaface.py` has a module-level
`device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')` that `detect_faces` uses for the
image and `mean_tensor`. The reporter's workaround, changing that line to `... else 'mps')`, made it work
(the maintainer then shipped a cuda/mps/cpu check there). Stand-ins: a small RetinaFace (conv/batch-norm
body and three 1x1 heads) with the global, `init_detection_model`, and `FaceRestoreHelper.get_face_landmarks_5`
up to the network outputs (numpy decoding and NMS left out). MPS is simulated as cuda:0 (fake mps tensors
cannot be built here), so the reporter's `'mps'` in the edited line reads `'cuda:0'`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')

class RetinaFace(nn.Module):
    def __init__(self, network_name='resnet50', half=False, phase='test'):
        super(RetinaFace, self).__init__()
        self.half_inference = half
        self.phase = phase
        self.mean_tensor = torch.tensor([[[[104.]], [[117.]], [[123.]]]]).to(device)
        self.body = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1, bias=False), nn.BatchNorm2d(32), nn.LeakyReLU(0.1))
        self.ClassHead = nn.Conv2d(32, 2 * 2, 1)
        self.BboxHead = nn.Conv2d(32, 2 * 4, 1)
        self.LandmarkHead = nn.Conv2d(32, 2 * 10, 1)
        self.to(device)
        self.eval()

    def forward(self, inputs):
        feat = self.body(inputs)
        n = feat.shape[0]
        bbox_regressions = self.BboxHead(feat).permute(0, 2, 3, 1).reshape(n, -1, 4)
        classifications = self.ClassHead(feat).permute(0, 2, 3, 1).reshape(n, -1, 2)
        ldm_regressions = self.LandmarkHead(feat).permute(0, 2, 3, 1).reshape(n, -1, 10)
        return bbox_regressions, F.softmax(classifications, dim=-1), ldm_regressions

    def transform(self, image, use_origin_size):
        image = image.astype(np.float32)
        image = image.transpose(2, 0, 1)
        image = torch.from_numpy(image).unsqueeze(0)
        return image, 1

    def detect_faces(self, image, conf_threshold=0.8, nms_threshold=0.4, use_origin_size=True):
        image, self.resize = self.transform(image, use_origin_size)
        image = image.to(device)
        image = image - self.mean_tensor
        loc, conf, landmarks = self(image)
        return loc, conf, landmarks

def init_detection_model(model_name, half=False, device='cuda'):
    model = RetinaFace(network_name='resnet50', half=half)
    model.eval()
    model = model.to(device)
    return model

class FaceRestoreHelper(object):
    def __init__(self, upscale_factor, face_size=512, det_model='retinaface_resnet50', device=None):
        self.upscale_factor = upscale_factor
        self.face_size = (face_size, face_size)
        self.device = device
        self.face_det = init_detection_model(det_model, half=False, device=self.device)
        self.input_img = None

    def read_image(self, img):
        self.input_img = img

    def get_face_landmarks_5(self, only_center_face=False, eye_dist_threshold=None):
        with torch.no_grad():
            bboxes = self.face_det.detect_faces(self.input_img, 0.97)
        return bboxes

face_helper = FaceRestoreHelper(1, face_size=512, det_model='retinaface_resnet50', device=torch.device('cuda:0'))   # 'mps' on the reporter's Mac
input_image = np.random.default_rng(0).integers(0, 256, (64, 64, 3), dtype=np.uint8)   # BGR swapped face
face_helper.read_image(input_image)
'''
CELL = '''
results = face_helper.get_face_landmarks_5(only_center_face=False, eye_dist_threshold=5)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "must be on the same device")
CULPRITS = ["face_helper.face_det"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')",
                  "device = torch.device('cuda' if torch.cuda.is_available() else 'cuda:0')")   # 'mps' in the report
CLEAN = False
