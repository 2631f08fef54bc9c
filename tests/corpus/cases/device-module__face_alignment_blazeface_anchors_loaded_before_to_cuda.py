"""face-alignment with the BlazeFace detector on CUDA: the anchors tensor is created on the CPU before the detector is moved, and `.to(device)` leaves it there.

Source: https://github.com/1adrianb/face-alignment/issues/197
"BlazeFace on GPU": `fa = face_alignment.FaceAlignment(face_alignment.LandmarksType._3D,
device='cuda', face_detector='blazeface')` then `fa.get_landmarks_from_image(frames[0])` failed in
`net_blazeface.py` `_decode_boxes` at `x_center = raw_boxes[..., 0] / self.x_scale * anchors[:, 2] +
anchors[:, 0]` with "Expected all tensors to be on the same device, but found at least two devices,
cuda:0 and cpu!" (fixed by PR #200). `BlazeFaceDetector.__init__` calls
`load_anchors_from_npy(...)`, which builds `self.anchors` on `self._device()` - still the CPU - and
only then `self.face_detector.to(device)`; `anchors` is a plain attribute, not a buffer. Stand-in: a
small BlazeFace (two BlazeBlock stages + heads), the detector wrapper and `predict_on_batch` up to
the decoded boxes and scores (the score-mask filtering and weighted NMS are left out); meta plays
the GPU.
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class BlazeBlock(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size=3, stride=1):
        super(BlazeBlock, self).__init__()
        self.stride = stride
        self.channel_pad = out_channels - in_channels
        if stride == 2:
            self.max_pool = nn.MaxPool2d(kernel_size=stride, stride=stride)
            padding = 0
        else:
            padding = (kernel_size - 1) // 2
        self.convs = nn.Sequential(
            nn.Conv2d(in_channels, in_channels, kernel_size, stride, padding, groups=in_channels, bias=True),
            nn.Conv2d(in_channels, out_channels, 1, 1, 0, bias=True))
        self.act = nn.ReLU(inplace=True)

    def forward(self, x):
        if self.stride == 2:
            h = F.pad(x, (0, 2, 0, 2), "constant", 0)
            x = self.max_pool(x)
        else:
            h = x
        if self.channel_pad > 0:
            x = F.pad(x, (0, 0, 0, 0, 0, self.channel_pad), "constant", 0)
        return self.act(self.convs(h) + x)

class BlazeFace(nn.Module):
    def __init__(self):
        super(BlazeFace, self).__init__()
        self.num_anchors = 896
        self.x_scale = self.y_scale = self.h_scale = self.w_scale = 128.0
        self.score_clipping_thresh = 100.0
        self.min_score_thresh = 0.75
        self.backbone1 = nn.Sequential(nn.Conv2d(3, 24, 5, 2, 0, bias=True), nn.ReLU(inplace=True),
                                       BlazeBlock(24, 32, stride=2), BlazeBlock(32, 48, stride=2))   # (b, 48, 16, 16)
        self.backbone2 = nn.Sequential(BlazeBlock(48, 96, stride=2))                                   # (b, 96, 8, 8)
        self.classifier_8 = nn.Conv2d(48, 2, 1, bias=True)
        self.classifier_16 = nn.Conv2d(96, 6, 1, bias=True)
        self.regressor_8 = nn.Conv2d(48, 32, 1, bias=True)
        self.regressor_16 = nn.Conv2d(96, 96, 1, bias=True)

    def forward(self, x):
        x = F.pad(x, (1, 2, 1, 2), "constant", 0)
        b = x.shape[0]
        x = self.backbone1(x)
        h = self.backbone2(x)
        c = torch.cat((self.classifier_8(x).permute(0, 2, 3, 1).reshape(b, -1, 1),
                       self.classifier_16(h).permute(0, 2, 3, 1).reshape(b, -1, 1)), dim=1)
        r = torch.cat((self.regressor_8(x).permute(0, 2, 3, 1).reshape(b, -1, 16),
                       self.regressor_16(h).permute(0, 2, 3, 1).reshape(b, -1, 16)), dim=1)
        return [r, c]

    def _device(self):
        return self.classifier_8.weight.device

    def load_anchors_from_npy(self, arr):
        self.anchors = torch.tensor(arr, dtype=torch.float32, device=self._device())
        assert(self.anchors.shape[0] == self.num_anchors)

    def _preprocess(self, x):
        return x.float() / 127.5 - 1.0

    def _decode_boxes(self, raw_boxes, anchors):
        boxes = torch.zeros_like(raw_boxes)
        x_center = raw_boxes[..., 0] / self.x_scale * anchors[:, 2] + anchors[:, 0]
        y_center = raw_boxes[..., 1] / self.y_scale * anchors[:, 3] + anchors[:, 1]
        w = raw_boxes[..., 2] / self.w_scale * anchors[:, 2]
        h = raw_boxes[..., 3] / self.h_scale * anchors[:, 3]
        boxes[..., 0] = y_center - h / 2.  # ymin
        boxes[..., 1] = x_center - w / 2.  # xmin
        boxes[..., 2] = y_center + h / 2.  # ymax
        boxes[..., 3] = x_center + w / 2.  # xmax
        return boxes

    def predict_on_batch(self, x):
        if isinstance(x, np.ndarray):
            x = torch.from_numpy(x).permute((0, 3, 1, 2))
        x = x.to(self._device())
        x = self._preprocess(x)
        with torch.no_grad():
            out = self.__call__(x)
        detection_boxes = self._decode_boxes(out[0], self.anchors)
        raw_score_tensor = out[1].clamp(-self.score_clipping_thresh, self.score_clipping_thresh)
        detection_scores = raw_score_tensor.sigmoid().squeeze(dim=-1)
        # mask = detection_scores >= self.min_score_thresh; per-image filtering + weighted NMS
        return detection_boxes, detection_scores

class BlazeFaceDetector:
    def __init__(self, device, verbose=False):
        self.device = device
        model_weights = BlazeFace().state_dict()      # load_url(models_urls['blazeface_weights'])
        model_anchors = np.random.rand(896, 4)        # load_numpy_from_url(models_urls['blazeface_anchors'])
        self.face_detector = BlazeFace()
        self.face_detector.load_state_dict(model_weights)
        self.face_detector.load_anchors_from_npy(model_anchors)
        self.face_detector.min_score_thresh = 0.5
        self.face_detector.min_suppression_threshold = 0.3
        self.face_detector.to(device)
        self.face_detector.eval()

    def detect_from_image(self, image):
        img = np.asarray(image)[None].astype(np.float32)   # detect(): resized 128x128 RGB frame
        return self.face_detector.predict_on_batch(img)

class FaceAlignment:
    def __init__(self, landmarks_type, device='cuda', face_detector='blazeface'):
        self.device = device
        self.face_detector = BlazeFaceDetector(device=device)

    def get_landmarks_from_image(self, image):
        return self.face_detector.detect_from_image(image)

fa = FaceAlignment("3D", device="meta", face_detector="blazeface")
frames = [np.random.randint(0, 256, (128, 128, 3), dtype=np.uint8) for _ in range(2)]
'''
CELL = '''
preds = fa.get_landmarks_from_image(frames[0])
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["fa.face_detector.face_detector.anchors"]
FIX = "namespace"
REFERENCE_FIX = '''
fa.face_detector.face_detector.anchors = fa.face_detector.face_detector.anchors.to("meta")
'''
REFERENCE_EDIT = None
CLEAN = False
