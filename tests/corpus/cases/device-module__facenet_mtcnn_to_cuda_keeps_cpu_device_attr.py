"""facenet-pytorch: `MTCNN(...).to('cuda')` moves the P/R/O-nets but not `mtcnn.device`, which still moves the image to the CPU.

Source: https://github.com/timesler/facenet-pytorch/issues/158
"About MTCNN on GPU": `mtcnn = MTCNN(keep_all=True).eval().to('cuda')`, the image tensor moved with
`img.to('cuda')`, then `faces = mtcnn(img)` raised "Input type (torch.FloatTensor) and weight type
(torch.cuda.FloatTensor) should be the same". A commenter: the models take a `device` argument when
built; `.to(device)` moves the parameters but `detect_face` moves the image to `self.device`, which
stays 'cpu'. Stand-in: MTCNN with its P-Net and the first (proposal) stage of `detect_face`; the
data-dependent box decoding/NMS and the R/O-net stages are left out.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class PNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 10, kernel_size=3)
        self.prelu1 = nn.PReLU(10)
        self.pool1 = nn.MaxPool2d(2, 2, ceil_mode=True)
        self.conv2 = nn.Conv2d(10, 16, kernel_size=3)
        self.prelu2 = nn.PReLU(16)
        self.conv3 = nn.Conv2d(16, 32, kernel_size=3)
        self.prelu3 = nn.PReLU(32)
        self.conv4_1 = nn.Conv2d(32, 2, kernel_size=1)
        self.softmax4_1 = nn.Softmax(dim=1)
        self.conv4_2 = nn.Conv2d(32, 4, kernel_size=1)

    def forward(self, x):
        x = self.pool1(self.prelu1(self.conv1(x)))
        x = self.prelu3(self.conv3(self.prelu2(self.conv2(x))))
        return self.conv4_2(x), self.softmax4_1(self.conv4_1(x))

def imresample(img, sz):
    return torch.nn.functional.interpolate(img, size=sz, mode="area")

def detect_face(imgs, minsize, pnet, threshold, factor, device):
    imgs = torch.as_tensor(imgs, device=device)
    if len(imgs.shape) == 3:
        imgs = imgs.unsqueeze(0)
    imgs = imgs.permute(0, 3, 1, 2).float()
    h, w = imgs.shape[2:4]
    scale = 12.0 / minsize
    minl = min(h, w) * scale
    outputs = []
    while minl >= 12:
        hs, ws = int(h * scale + 1), int(w * scale + 1)
        img_x = imresample(imgs, (hs, ws))
        img_x = (img_x - 127.5) * 0.0078125
        reg, probs = pnet(img_x)
        outputs.append((reg, probs))
        scale = scale * factor
        minl = minl * factor
    return outputs

class MTCNN(nn.Module):
    def __init__(self, image_size=160, margin=0, min_face_size=20, thresholds=[0.6, 0.7, 0.7],
                 factor=0.709, post_process=True, keep_all=False, device=None):
        super().__init__()
        self.image_size, self.margin = image_size, margin
        self.min_face_size, self.thresholds, self.factor = min_face_size, thresholds, factor
        self.keep_all = keep_all
        self.pnet = PNet()
        self.device = torch.device('cpu')
        if device is not None:
            self.device = device
            self.to(device)

    def detect(self, img):
        with torch.no_grad():
            return detect_face(img, self.min_face_size, self.pnet, self.thresholds, self.factor, self.device)

    def forward(self, img):
        return self.detect(img)

mtcnn = MTCNN(keep_all=True).eval().to('cuda:0')
img = torch.randint(0, 256, (96, 128, 3), dtype=torch.uint8)
img = img.to('cuda:0')
'''
CELL = '''
faces = mtcnn(img)
'''
EXPECT_ERROR = ("should be the same", "Expected all tensors to be on the same device")
CULPRITS = ["mtcnn"]
FIX = "namespace"
REFERENCE_FIX = '''
mtcnn.device = torch.device('cuda:0')
'''
REFERENCE_EDIT = None
CLEAN = False
