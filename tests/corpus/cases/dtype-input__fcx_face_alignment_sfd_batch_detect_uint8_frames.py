"""face-alignment batch landmarks with the SFD detector: `batch_detect` feeds the uint8 frame batch straight into the float32 S3FD network.

Source: https://github.com/1adrianb/face-alignment/pull/196
Using `get_landmarks_from_batch` with the SFD face detector on a batch of video frames "would have thrown a
RuntimeError" (the 2020 message: "value cannot be converted to type uint8_t without overflow"; current PyTorch
reports "Input type (unsigned char) and bias type (float) should be the same"). `SFDDetector.detect_from_batch`
passes the batch to `batch_detect(net, img_batch, device)`, which runs `olist = net(img_batch)` on the uint8
frames, whereas the single-image `detect` path converts with `.float()`. The merged fix changes that line in
`face_alignment/detection/sfd/detect.py` to `olist = net(img_batch.float())`.
Stand-ins: s3fd reduced to its first conv block and one conf/loc head pair, `FaceAlignment` holding the
`SFDDetector`; the cell stops at face detection (box decoding and FAN left out).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class s3fd(nn.Module):
    def __init__(self):
        super(s3fd, self).__init__()
        self.conv1_1 = nn.Conv2d(3, 64, kernel_size=3, stride=1, padding=1)
        self.conv1_2 = nn.Conv2d(64, 64, kernel_size=3, stride=1, padding=1)
        self.conv3_3_norm_mbox_conf = nn.Conv2d(64, 4, kernel_size=3, stride=1, padding=1)
        self.conv3_3_norm_mbox_loc = nn.Conv2d(64, 4, kernel_size=3, stride=1, padding=1)

    def forward(self, x):
        h = F.relu(self.conv1_1(x))
        h = F.relu(self.conv1_2(h))
        h = F.max_pool2d(h, 2, 2)
        cls1 = self.conv3_3_norm_mbox_conf(h)
        reg1 = self.conv3_3_norm_mbox_loc(h)
        chunk = torch.chunk(cls1, 4, 1)
        bmax = torch.max(torch.max(chunk[0], chunk[1]), chunk[2])
        cls1 = torch.cat([bmax, chunk[3]], dim=1)
        return [cls1, reg1]

def batch_detect(net, img_batch, device):
    """
    Inputs:
        - img_batch: a torch.Tensor of shape (Batch size, Channels, Height, Width)
    """
    BB, CC, HH, WW = img_batch.size()
    with torch.no_grad():
        olist = net(img_batch)
    for i in range(len(olist) // 2):
        olist[i * 2] = F.softmax(olist[i * 2], dim=1)
    olist = [oelem.data.cpu() for oelem in olist]
    return olist

class SFDDetector:
    def __init__(self, device, path_to_detector=None, verbose=False):
        self.device = device
        self.face_detector = s3fd()
        self.face_detector.to(device)
        self.face_detector.eval()

    def detect_from_batch(self, tensor):
        bboxlists = batch_detect(self.face_detector, tensor, device=self.device)
        return bboxlists

class FaceAlignment:
    def __init__(self, landmarks_type, device='cuda', flip_input=False, face_detector='sfd'):
        self.device = device
        self.flip_input = flip_input
        self.landmarks_type = landmarks_type
        self.face_detector = SFDDetector(device=device)

    def get_landmarks_from_batch(self, image_batch, detected_faces=None):
        if detected_faces is None:
            detected_faces = self.face_detector.detect_from_batch(image_batch)
        return detected_faces

fa = FaceAlignment('2D', device='cpu', face_detector='sfd')
frames = [np.random.default_rng(i).integers(0, 256, (64, 64, 3), dtype=np.uint8) for i in range(5)]   # video frames
batch = np.stack(frames)
batch = batch.transpose(0, 3, 1, 2)
batch = torch.from_numpy(batch[:5])
'''
CELL = '''
preds = fa.get_landmarks_from_batch(batch)
'''
EXPECT_ERROR = ("should be the same", "expected scalar type", "uint8_t")
CULPRITS = ["batch_detect"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("olist = net(img_batch)", "olist = net(img_batch.float())")
CLEAN = False
