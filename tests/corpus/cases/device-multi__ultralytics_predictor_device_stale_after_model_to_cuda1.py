"""ultralytics YOLOv8: after a first predict, `model.to('cuda:1')` leaves the cached predictor sending images to cuda:0.

Source: https://github.com/ultralytics/ultralytics/issues/4556
"BUG in cuda:1": the user moved a YOLO model to cuda:1 and called it on an image already on cuda:1;
afterwards `model.device` said cuda:0. After `model.to('cuda:1')` again, `model(img_cuda)` failed with
"Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cuda:1!
(when checking argument for argument weight ...)". The first call built a predictor with the default
device (cuda:0): its AutoBackend moved the network there and it keeps `predictor.device`, to which
`preprocess` sends every image; the second `model.to('cuda:1')` moves the network but not the
predictor's device. Stand-in: YOLO / DetectionPredictor / AutoBackend reduced to that path
(`select_device`, `setup_model`, `preprocess`), a small Conv(conv+bn+SiLU) network.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
import torch.nn as nn

def select_device(device=''):
    return torch.device('cuda:0' if device in ('', None) else device)

class Conv(nn.Module):
    def __init__(self, c1, c2, k=1, s=1):
        super().__init__()
        self.conv = nn.Conv2d(c1, c2, k, s, k // 2, bias=False)
        self.bn = nn.BatchNorm2d(c2)
        self.act = nn.SiLU()

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))

class DetectionModel(nn.Module):
    def __init__(self, nc=2):
        super().__init__()
        self.model = nn.Sequential(Conv(3, 8, 3, 2), Conv(8, 16, 3, 2), nn.Conv2d(16, 4 + nc, 1))

    def forward(self, x):
        return self.model(x)

class AutoBackend(nn.Module):
    def __init__(self, weights, device=torch.device('cpu'), fp16=False, fuse=True):
        super().__init__()
        model = weights.to(device)
        self.model = model
        self.device = device
        self.fp16 = fp16

    def forward(self, im):
        return self.model(im)

class DetectionPredictor:
    def __init__(self, overrides=None):
        self.args = dict(overrides or {})
        self.model = None
        self.device = None

    def setup_model(self, model, verbose=True):
        self.model = AutoBackend(model, device=select_device(self.args.get('device', '')))
        self.device = self.model.device
        self.model.eval()

    def preprocess(self, im):
        im = im.to(self.device)
        im = im.half() if self.model.fp16 else im.float()
        return im

    def __call__(self, source=None, model=None):
        if not self.model:
            self.setup_model(model)
        im = self.preprocess(source)
        return self.model(im)

class YOLO:
    def __init__(self, model=None):
        self.model = model if model is not None else DetectionModel()
        self.predictor = None
        self.overrides = {}

    def __call__(self, source=None, stream=False, **kwargs):
        return self.predict(source, stream, **kwargs)

    def predict(self, source=None, stream=False, **kwargs):
        overrides = {**self.overrides, **kwargs}
        if not self.predictor:
            self.predictor = DetectionPredictor(overrides=overrides)
            self.predictor.setup_model(model=self.model, verbose=False)
        return self.predictor(source=source)

    def to(self, device):
        self.model.to(device)
        return self

    @property
    def device(self):
        return next(self.model.parameters()).device

model = YOLO()                                   # YOLO('./models/best.pt')
img_tensor = torch.rand(3, 64, 64)               # transform(Image.fromarray(image))
img_cuda = img_tensor.unsqueeze(0).to('cuda:1')
model.to('cuda:1')
results = model(img_cuda)                        # runs, but model.device is now cuda:0
model.to('cuda:1')
'''
CELL = '''
results = model(img_cuda)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.predictor"]
FIX = "namespace"
REFERENCE_FIX = '''
model.predictor.device = torch.device("cuda:1")
'''
REFERENCE_EDIT = None
CLEAN = False
