"""EasyOCR `Reader(['en'], gpu="cuda:1")`: the detector is wrapped in DataParallel over all GPUs, starting at cuda:0.

Source: https://github.com/JaidedAI/EasyOCR/issues/1067
"Trying to use different GPU": with two GPUs, `reader = easyocr.Reader(['en'], gpu="cuda:1")` then
`reader.readtext(img)` raised "module must have its parameters and buffers on device cuda:0
(device_ids[0]) but found one of them on device: cuda:1". `get_detector` does
`net = torch.nn.DataParallel(net).to(device)`: the weights go to cuda:1 while `device_ids` keep
their default, every visible GPU from 0. A later answer (issue #1159) builds the DataParallel with
`device_ids=[device_number]`. Stand-in: the CRAFT detector reduced to a small conv net,
`nn.DataParallel` as on a machine with GPUs 0 and 1 (torch's own `forward` and device check;
scatter/replicate/gather kept on one device), `readtext` reduced to the detection forward.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import numpy as np
import torch
from torch import nn

class DataParallel(nn.DataParallel):
    # stand-in: nn.DataParallel(module) on a machine with GPUs 0 and 1
    def __init__(self, module, device_ids=(0, 1)):
        nn.Module.__init__(self)
        self.module, self.dim = module, 0
        self.device_ids = list(device_ids)
        self.output_device = self.device_ids[0]
        self.src_device_obj = torch.device(f"cuda:{self.device_ids[0]}")

    def scatter(self, inputs, kwargs, device_ids):
        return (tuple(t.to(self.src_device_obj) for t in inputs),), (kwargs,)

    def replicate(self, module, device_ids):
        return [module]

    def parallel_apply(self, replicas, inputs, kwargs):
        return [replicas[0](*inputs[0], **kwargs[0])]

    def gather(self, outputs, output_device):
        return outputs[0]

class CRAFT(nn.Module):
    def __init__(self):
        super().__init__()
        self.basenet = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.Conv2d(32, 32, 3, padding=1), nn.ReLU())
        self.conv_cls = nn.Conv2d(32, 2, 1)

    def forward(self, x):
        y = self.conv_cls(self.basenet(x))
        return y.permute(0, 2, 3, 1), None

def get_detector(trained_model, device='cpu', quantize=True, cudnn_benchmark=False):
    net = CRAFT()
    if device == 'cpu':
        pass
    else:
        net = DataParallel(net).to(device)
    net.eval()
    return net

class Reader(object):
    def __init__(self, lang_list, gpu=True):
        if gpu is False:
            self.device = 'cpu'
        elif gpu is True:
            self.device = 'cuda'
        else:
            self.device = gpu
        self.detector = get_detector("craft_mlt_25k.pth", self.device)

    def detect(self, img):
        x = torch.from_numpy(img).permute(2, 0, 1).unsqueeze(0).float() / 255.0
        x = x.to(self.device)
        with torch.no_grad():
            y, feature = self.detector(x)
        return y

    def readtext(self, image, detail=0):
        return self.detect(image)

reader = Reader(['en'], gpu="cuda:1")
img = (np.random.rand(64, 128, 3) * 255).astype(np.uint8)        # cv2.imread("image.png")
'''
CELL = '''
eo = reader.readtext(img)
'''
EXPECT_ERROR = "(device_ids[0]) but found one of them on device: cuda:1"
CULPRITS = ["reader.detector"]
FIX = "namespace"
REFERENCE_FIX = '''
reader.detector = DataParallel(reader.detector.module, device_ids=[1])
'''
REFERENCE_EDIT = None
CLEAN = False
