"""YOLOX demo with `--trt --fp16`: the warm-up input is a float32 `torch.ones(...)` fed to the half-precision model.

Source: https://github.com/Megvii-BaseDetection/YOLOX/issues/1345
Running `tools/demo.py image ... --trt --save_result --fp16` raised "RuntimeError: Input type
(torch.cuda.FloatTensor) and weight type (torch.cuda.HalfTensor) should be the same". With `--fp16`
the demo calls `model.half()` before building the `Predictor`, whose TensorRT branch warms the model
up with `x = torch.ones(1, 3, exp.test_size[0], exp.test_size[1]).cuda(); self.model(x)`. The
reporter added `x = x.half()` before the call. Stand-in: YOLOX reduced to a small conv backbone and
head, and the Predictor's TensorRT branch (the TRTModule loading dropped); run on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class BaseConv(nn.Module):
    def __init__(self, c_in, c_out, ksize, stride):
        super().__init__()
        self.conv = nn.Conv2d(c_in, c_out, ksize, stride, padding=(ksize - 1) // 2, bias=False)
        self.bn = nn.BatchNorm2d(c_out)
        self.act = nn.SiLU()

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))

class YOLOX(nn.Module):
    def __init__(self, num_classes=3):
        super().__init__()
        self.backbone = nn.Sequential(BaseConv(3, 16, 3, 2), BaseConv(16, 32, 3, 2), BaseConv(32, 64, 3, 2))
        self.head = nn.Conv2d(64, 5 + num_classes, 1)

    def forward(self, x):
        return self.head(self.backbone(x)).flatten(2).permute(0, 2, 1)

class Exp:
    test_size = (64, 64)

class Predictor:
    def __init__(self, model, exp, trt_file=None, fp16=False):
        self.model = model
        self.test_size = exp.test_size
        self.fp16 = fp16
        self.trt_file = trt_file

    def warmup(self):
        if self.trt_file is not None:
            x = torch.ones(1, 3, self.test_size[0], self.test_size[1])
            self.model(x)

exp = Exp()
model = YOLOX()
model.eval()
fp16 = True
if fp16:
    model.half()  # to FP16
predictor = Predictor(model, exp, trt_file="model_trt.pth", fp16=fp16)
'''
CELL = '''
with torch.no_grad():
    predictor.warmup()
'''
EXPECT_ERROR = ("expected scalar type Float but found Half",
                "Input type (float) and bias type (c10::Half) should be the same",
                "Input type (torch.FloatTensor) and weight type (torch.HalfTensor) should be the same")
CULPRITS = ["x"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "            self.model(x)",
    "            x = x.half()\n            self.model(x)",
)
CLEAN = False
