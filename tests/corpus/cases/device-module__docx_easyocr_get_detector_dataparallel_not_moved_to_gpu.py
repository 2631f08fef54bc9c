"""EasyOCR 1.1 `Reader(['en'])` on a GPU: `get_detector` wraps the CRAFT net in `DataParallel` but never moves it to the device.

Source: https://github.com/JaidedAI/EasyOCR/issues/46
"RuntimeError: module must have its parameters and buffers on device cuda:0 (device_ids[0]) but found
one of them on device: cpu" on `readtext` with EasyOCR 1.1. In `detection.get_detector` the CRAFT
detector is built on the CPU and `load_state_dict(torch.load(trained_model, map_location=device))`
copies the weights into those CPU parameters (map_location only places the loaded tensors), then
`net = torch.nn.DataParallel(net)` without `.to(device)`, while `test_net` sends the page to
`device`. The maintainer: "This should be fixed by #50", which writes
`net = torch.nn.DataParallel(net).to(device)`. Stand-in: `Reader` reduced to the detector, CRAFT to
a few VGG16-BN blocks and its score head, no checkpoint (the CPU parameters are what loading leaves),
`test_net` stops at the forward (no box post-processing); the simulator's CPU-only DataParallel
forwards to the module, so the failure shows at the first batch norm instead of in DataParallel.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
import torch.backends.cudnn as cudnn
from torch import nn

class CRAFT(nn.Module):
    """CRAFT (reduced): vgg16_bn basenet slice + the region/affinity score head."""
    def __init__(self):
        super().__init__()
        self.basenet = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(inplace=True), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(inplace=True))
        self.conv_cls = nn.Sequential(nn.Conv2d(32, 16, 3, padding=1), nn.ReLU(inplace=True), nn.Conv2d(16, 2, 1))
    def forward(self, x):
        feature = self.basenet(x)
        y = self.conv_cls(feature)
        return y.permute(0, 2, 3, 1), feature

def get_detector(trained_model, device='cpu'):
    net = CRAFT()
    if device == 'cpu':
        pass   # net.load_state_dict(copyStateDict(torch.load(trained_model, map_location=device)))
    else:
        # net.load_state_dict(copyStateDict(torch.load(trained_model, map_location=device)))
        net = torch.nn.DataParallel(net)
        cudnn.benchmark = False
    net.eval()
    return net

def normalizeMeanVariance(in_img, mean=(0.485, 0.456, 0.406), variance=(0.229, 0.224, 0.225)):
    img = in_img.copy().astype(np.float32)
    img -= np.array([mean[0] * 255.0, mean[1] * 255.0, mean[2] * 255.0], dtype=np.float32)
    img /= np.array([variance[0] * 255.0, variance[1] * 255.0, variance[2] * 255.0], dtype=np.float32)
    return img

def test_net(canvas_size, mag_ratio, net, image, text_threshold, link_threshold, low_text, poly, device):
    x = normalizeMeanVariance(image)
    x = torch.from_numpy(x).permute(2, 0, 1)
    x = x.unsqueeze(0)
    x = x.to(device)
    with torch.no_grad():
        y, feature = net(x)
    return y

class Reader(object):
    def __init__(self, lang_list, gpu=True):
        if gpu is False:
            self.device = 'cpu'
        elif gpu is True:
            self.device = 'cuda:0'     # 'cuda' in EasyOCR
        else:
            self.device = gpu
        self.detector = get_detector("craft_mlt_25k.pth", self.device)

    def readtext(self, image, canvas_size=2560, mag_ratio=1., text_threshold=0.7, link_threshold=0.4, low_text=0.4):
        return test_net(canvas_size, mag_ratio, self.detector, image, text_threshold, link_threshold,
                        low_text, False, self.device)

reader = Reader(['en'])
img = np.random.randint(0, 255, (64, 96, 3), dtype=np.uint8)   # cv2.imread('english.png')
'''
CELL = '''
result = reader.readtext(img)
'''
EXPECT_ERROR = ("module must have its parameters and buffers", "Expected all tensors to be on the same device")
CULPRITS = ["reader.detector"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        net = torch.nn.DataParallel(net)\n",
                  "        net = torch.nn.DataParallel(net).to(device)\n")
CLEAN = False
