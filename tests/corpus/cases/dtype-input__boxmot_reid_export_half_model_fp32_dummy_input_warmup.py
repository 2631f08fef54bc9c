"""BoxMOT ReID export with --half: the model is cast to FP16, the warm-up dummy input is still FP32.

Source: https://github.com/mikel-brostrom/boxmot/issues/2230
`boxmot export --weights osnet_x0_25_msmt17.pt --include onnx --half --device 0` failed during the
warm-up forward pass with "Input type (torch.cuda.FloatTensor) and weight type
(torch.cuda.HalfTensor) should be the same": `setup_model()` runs the warm-up before it makes the
dummy input's dtype match the model's; with --half the weights are FP16 but `dummy_input` is created
as FP32. Stand-in: the export script's setup with a small OSNet-like backbone (a biased conv stem,
batch norm, pooling, embedding) in place of the registry-built model.
"""

SIM = "fake_cuda"
FAMILY = "dtype-input"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn

class OSNetStub(nn.Module):
    def __init__(self, num_classes=1000, feature_dim=512):
        super().__init__()
        self.conv1 = nn.Sequential(nn.Conv2d(3, 16, 7, stride=2, padding=3), nn.BatchNorm2d(16), nn.ReLU())
        self.maxpool = nn.MaxPool2d(3, stride=2, padding=1)
        self.conv2 = nn.Sequential(nn.Conv2d(16, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU())
        self.global_avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Sequential(nn.Linear(64, feature_dim), nn.BatchNorm1d(feature_dim), nn.ReLU())

    def forward(self, x):
        x = self.conv2(self.maxpool(self.conv1(x)))
        return self.fc(self.global_avgpool(x).flatten(1))

args = SimpleNamespace(weights="osnet_x0_25_msmt17.pt", include=["onnx"], half=True, device="0",
                       batch_size=1, imgsz=[256, 128], dynamic=False)
device = torch.device("cuda:0")
model = OSNetStub()
model.eval()
if args.half:
    model = model.half()
model = model.to(device)
dummy_input = torch.empty(args.batch_size, 3, args.imgsz[0], args.imgsz[1]).to(device)
'''
CELL = '''
for _ in range(2):
    y = model(dummy_input)  # dry runs
'''
EXPECT_ERROR = ("should be the same", "expected scalar type", "must have the same dtype")
CULPRITS = ["dummy_input"]
FIX = "namespace"
REFERENCE_FIX = '''
dummy_input = dummy_input.half()
'''
REFERENCE_EDIT = None
CLEAN = False
