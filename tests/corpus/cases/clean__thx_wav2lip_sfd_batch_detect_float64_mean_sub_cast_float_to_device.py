"""Look-alike: Wav2Lip's S3FD `batch_detect` subtracts the BGR mean in numpy (float64), then `.float().to(device)`, and copies the score/box maps back to the CPU to decode.

Source: https://github.com/Rudrabha/Wav2Lip (face_detection/detection/sfd/detect.py, batch_detect)
`imgs = imgs - np.array([104, 117, 123])` turns the uint8 frames into float64, `torch.from_numpy(imgs)
.float().to(device)` casts and moves them for the s3fd net; each classification map goes through
`F.softmax` on the device and `olist = [oelem.data.cpu() for oelem in olist]` brings all maps back for
the numpy anchor decoding. Float64 numpy, CPU copies and a GPU detector: all intended, and it runs.
Stand-ins: s3fd as two detection levels (conv trunk, cls/reg heads), frames 32x32; the decoding after
the CPU copy (np.where over anchors, batch_decode) left out.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class s3fd(nn.Module):                           # face_detection/detection/sfd/net_s3fd.py (reduced)
    def __init__(self):
        super(s3fd, self).__init__()
        self.conv1_1 = nn.Conv2d(3, 8, 3, stride=2, padding=1)
        self.conv2_1 = nn.Conv2d(8, 16, 3, stride=2, padding=1)
        self.conv3_3_norm_mbox_conf = nn.Conv2d(8, 4, 3, padding=1)
        self.conv3_3_norm_mbox_loc = nn.Conv2d(8, 4, 3, padding=1)
        self.conv4_3_norm_mbox_conf = nn.Conv2d(16, 2, 3, padding=1)
        self.conv4_3_norm_mbox_loc = nn.Conv2d(16, 4, 3, padding=1)

    def forward(self, x):
        h = F.relu(self.conv1_1(x))
        f3_3 = h
        h = F.relu(self.conv2_1(h))
        f4_3 = h
        cls1 = self.conv3_3_norm_mbox_conf(f3_3)
        reg1 = self.conv3_3_norm_mbox_loc(f3_3)
        cls2 = self.conv4_3_norm_mbox_conf(f4_3)
        reg2 = self.conv4_3_norm_mbox_loc(f4_3)
        # max-out background label
        chunk = torch.chunk(cls1, 4, 1)
        bmax = torch.max(torch.max(chunk[0], chunk[1]), chunk[2])
        cls1 = torch.cat([bmax, chunk[3]], dim=1)
        return [cls1, reg1, cls2, reg2]

def batch_detect(net, imgs, device):
    imgs = imgs - np.array([104, 117, 123])
    imgs = imgs.transpose(0, 3, 1, 2)

    if 'cuda' in device:
        torch.backends.cudnn.benchmark = True

    imgs = torch.from_numpy(imgs).float().to(device)
    BB, CC, HH, WW = imgs.size()
    with torch.no_grad():
        olist = net(imgs)

    for i in range(len(olist) // 2):
        olist[i * 2] = F.softmax(olist[i * 2], dim=1)
    olist = [oelem.data.cpu() for oelem in olist]
    return olist          # (anchor decoding with numpy follows in the repo)

device = 'cuda:0'          # FaceAlignment(LandmarksType._2D, flip_input=False, device='cuda')
face_detector = s3fd()
# face_detector.load_state_dict(torch.load(path_to_detector)['s3fd'])
face_detector.to(device)
face_detector.eval()
images = np.random.default_rng(0).integers(0, 256, (4, 32, 32, 3)).astype(np.uint8)  # np.array(images[i:i + batch_size])
'''
CELL = '''
olist = batch_detect(face_detector, images.copy(), device=device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
