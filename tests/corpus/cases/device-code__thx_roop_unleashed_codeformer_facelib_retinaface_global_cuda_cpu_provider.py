"""roop-unleashed CodeFormer enhancer on the CPU provider: CodeFormer's facelib RetinaFace sends the frame to its module-global cuda `device`, the detector weights sit on the CPU.

Source: https://github.com/C0untFloyd/roop-unleashed/issues/34
"Failed inference for CodeFormer" when running with the CPU execution provider (with CUDA it works). A
commenter traced it: the error is "Input type (torch.cuda.FloatTensor) and weight type
(torch.FloatTensor) should be the same" -- "codeformer auto detect cuda and try to use cuda", the device
has to be specified. roop's `enhancer/Codeformer.py` builds `FaceRestoreHelper(..., device=get_device())`
(= 'cpu' for the CPU provider), which moves the RetinaFace detector to the CPU, but
`facelib/detection/retinaface/retinaface.py` keeps a module-level `device = torch.device('cuda' if
torch.cuda.is_available() else 'cpu')` that `detect_faces` uses for the frame and for `mean_tensor`.
Stand-in: RetinaFace as a conv/batch-norm body and the three heads, `detect_faces` up to the network
outputs (no prior box decoding, NMS or cv2 resize), FaceRestoreHelper reduced to the detector part; the
cell is the body of `enhance_Codeformer`'s try block, whose except only prints the error.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

# codeformer/facelib/detection/retinaface/retinaface.py
device = torch.device("cuda:0")  # torch.device('cuda' if torch.cuda.is_available() else 'cpu')

class RetinaFace(nn.Module):
    def __init__(self, network_name='resnet50', half=False, phase='test'):
        super(RetinaFace, self).__init__()
        self.half_inference = half
        self.phase = phase
        self.resize, self.scale, self.scale1 = 1., None, None
        self.mean_tensor = torch.tensor([[[[104.]], [[117.]], [[123.]]]]).to(device)
        self.body = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU(),
                                  nn.Conv2d(16, 32, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(32), nn.ReLU())
        self.ClassHead = nn.Conv2d(32, 2 * 2, 1)
        self.BboxHead = nn.Conv2d(32, 2 * 4, 1)
        self.LandmarkHead = nn.Conv2d(32, 2 * 10, 1)
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
        loc, conf, landmarks = self(image)
        return loc, conf, landmarks

# codeformer/facelib/detection/__init__.py
def init_detection_model(model_name, half=False, device='cuda'):
    model = RetinaFace(network_name='resnet50', half=half)
    # load_file_from_url + model.load_state_dict(detection_Resnet50_Final.pth)
    model.eval()
    model = model.to(device)
    return model

# codeformer/facelib/utils/face_restoration_helper.py (detector part)
class FaceRestoreHelper(object):
    def __init__(self, upscale_factor, face_size=512, crop_ratio=(1, 1), det_model='retinaface_resnet50',
                 save_ext='png', template_3points=False, pad_blur=False, use_parse=False, device=None):
        self.upscale_factor = int(upscale_factor)
        self.face_size = (int(face_size * crop_ratio[1]), int(face_size * crop_ratio[0]))
        self.device = torch.device('cuda' if torch.cuda.is_available() else 'cpu') if device is None else device
        self.face_det = init_detection_model(det_model, half=False, device=self.device)
        self.clean_all()

    def clean_all(self):
        self.all_landmarks_5 = []
        self.restored_faces = []
        self.affine_matrices = []
        self.cropped_faces = []
        self.inverse_affine_matrices = []
        self.det_faces = []

    def read_image(self, img):
        if img.shape[2] == 4:
            img = img[:, :, 0:3]
        self.input_img = img

    def get_face_landmarks_5(self, only_keep_largest=False, only_center_face=False, resize=None,
                             blur_ratio=0.01, eye_dist_threshold=None):
        input_img = self.input_img     # (cv2.resize to `resize` on the short side left out)
        with torch.no_grad():
            bboxes = self.face_det.detect_faces(input_img)
        return bboxes

# roop/utilities.py
execution_providers = ['CPUExecutionProvider']    # roop.globals.execution_providers
def get_device() -> str:
    if 'CUDAExecutionProvider' in execution_providers:
        return 'cuda'
    if 'CoreMLExecutionProvider' in execution_providers:
        return 'mps'
    return 'cpu'

# enhancer/Codeformer.py: create()
FACE_HELPER = FaceRestoreHelper(
        upscale_factor=int(2),
        face_size=512,
        crop_ratio=(1, 1),
        det_model="retinaface_resnet50",
        save_ext="png",
        use_parse=True,
        device=get_device()
    )
temp_frame = np.random.default_rng(0).integers(0, 256, (64, 64, 3)).astype(np.uint8)  # swapped frame (BGR)
'''
CELL = '''
FACE_HELPER.clean_all()
FACE_HELPER.read_image(temp_frame)
# get face landmarks for each face
bboxes = FACE_HELPER.get_face_landmarks_5(only_center_face=False, resize=640, eye_dist_threshold=5)
'''
EXPECT_ERROR = ("should be the same", "Expected all tensors to be on the same device")
CULPRITS = ["FACE_HELPER.face_det"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    'device = torch.device("cuda:0")  # torch.device',
    'device = torch.device("cpu")  # torch.device',
)
CLEAN = False
