"""GFPGAN face restore on CPU: facexlib's RetinaFace moves the image to a module-global `device` (cuda), the weights sit on the CPU.

Source: https://github.com/AbdBarho/stable-diffusion-webui-docker/issues/50
With `--extra-models-cpu` (GFPGAN on the CPU) FixFaces failed with "Input type
(torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same". GFPGANer builds
its face detector with `init_detection_model(..., device=cpu)`, which moves RetinaFace to the CPU,
but facexlib's `retinaface.py` has a module-level `device = torch.device('cuda' if
torch.cuda.is_available() else 'cpu')` that `detect_faces` uses for the image and the mean tensor
(AUTOMATIC1111 later patched `facexlib.detection.retinaface.device` before building the model, PR
#4461). Stand-in: a small RetinaFace (a conv/batch-norm body and the three heads) with facexlib's
`device` global, `init_detection_model`, and `detect_faces` up to the network outputs (the numpy box
decoding and NMS are left out).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

# facexlib/detection/retinaface.py
device = torch.device("cuda:0")  # torch.device('cuda' if torch.cuda.is_available() else 'cpu')

class RetinaFace(nn.Module):
    def __init__(self, network_name='resnet50', half=False, phase='test'):
        super(RetinaFace, self).__init__()
        self.half_inference = half
        self.phase = phase
        self.target_size, self.max_size = 1600, 2150
        self.resize, self.scale, self.scale1 = 1., None, None
        self.mean_tensor = torch.tensor([[[[104.]], [[117.]], [[123.]]]]).to(device)
        # resnet50 stem + a stage (IntermediateLayerGetter in facexlib): conv / bn / relu
        self.body = nn.Sequential(nn.Conv2d(3, 32, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(32), nn.ReLU(),
                                  nn.Conv2d(32, 64, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(64), nn.ReLU())
        self.ClassHead = nn.Conv2d(64, 2 * 2, 1)
        self.BboxHead = nn.Conv2d(64, 2 * 4, 1)
        self.LandmarkHead = nn.Conv2d(64, 2 * 10, 1)
        self.to(device)
        self.eval()
        if self.half_inference:
            self.half()

    def forward(self, inputs):
        out = self.body(inputs)
        n = out.shape[0]
        bbox_regressions = self.BboxHead(out).permute(0, 2, 3, 1).reshape(n, -1, 4)
        classifications = self.ClassHead(out).permute(0, 2, 3, 1).reshape(n, -1, 2)
        ldm_regressions = self.LandmarkHead(out).permute(0, 2, 3, 1).reshape(n, -1, 10)
        return bbox_regressions, F.softmax(classifications, dim=-1), ldm_regressions

    def transform(self, image, use_origin_size):
        image = image.astype(np.float32)
        image = image.transpose(2, 0, 1)
        image = torch.from_numpy(image).unsqueeze(0)
        return image, 1

    def detect_faces(self, image, conf_threshold=0.8, nms_threshold=0.4, use_origin_size=True):
        image, self.resize = self.transform(image, use_origin_size)
        image = image.to(device)
        if self.half_inference:
            image = image.half()
        image = image - self.mean_tensor
        height, width = image.shape[2:]
        self.scale = torch.tensor([width, height, width, height], dtype=torch.float32).to(device)
        loc, conf, landmarks = self(image)
        return loc, conf, landmarks

# facexlib/detection/__init__.py
def init_detection_model(model_name, half=False, device='cuda'):
    model = RetinaFace(network_name='resnet50', half=half)
    # (load_file_from_url + load_state_dict of detection_Resnet50_Final.pth)
    model.eval()
    model = model.to(device)
    return model

# webui with --extra-models-cpu: GFPGANer(..., device=torch.device('cpu'))
gfpgan_device = torch.device("cpu")
face_det = init_detection_model('retinaface_resnet50', half=False, device=gfpgan_device)
input_img = np.random.randint(0, 256, (128, 128, 3)).astype(np.uint8)  # BGR frame from the sampler
'''
CELL = '''
loc, conf, landmarks = face_det.detect_faces(input_img, 0.97)
'''
EXPECT_ERROR = ("should be the same", "Expected all tensors to be on the same device")
CULPRITS = ["face_det"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    'device = torch.device("cuda:0")  # torch.device',
    'device = torch.device("cpu")  # torch.device',
)
CLEAN = False
