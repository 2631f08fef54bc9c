"""segmentation_models.pytorch: a Unet with a mit_b1 encoder traced on the CPU, reloaded and moved to the GPU; the encoder's empty "dummy" skip feature was traced with the CPU device.

Source: https://github.com/qubvel-org/segmentation_models.pytorch/issues/857
"tracing mit-b1 on cpu and then running on gpu fails": `traced = torch.jit.trace(model, sample_data)`
on the CPU, `traced.save("sample.jit")`, `model = torch.jit.load("sample.jit", map_location='cpu');
model = model.to('cuda'); model(sample_data.to('cuda'))` raised "Expected all tensors to be on the
same device, but found at least two devices, cuda:0 and cpu! (when checking argument for argument
tensors in method wrapper__cat)". The Mix Transformer encoder returns a zero-channel placeholder for the
stride-2 stage, `torch.empty([B, 0, H // 2, W // 2], dtype=x.dtype, device=x.device)`; tracing records
`x.device` as the constant cpu, and the decoder concatenates that placeholder with GPU features.
Stand-in: the traced code written out as Python (tracing fake tensors is not possible), encoder and
decoder reduced to a few convolutions.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class MixVisionTransformerEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.stage1 = nn.Conv2d(3, 16, 7, 4, 3)
        self.stage2 = nn.Conv2d(16, 32, 3, 2, 1)

    def forward(self, x):
        B, C, H, W = x.shape
        # traced: `device=x.device` recorded as the constant it had while tracing
        dummy = torch.empty([B, 0, H // 2, W // 2], dtype=torch.float32, device=torch.device("cpu"))
        f1 = self.stage1(x)
        return [x, dummy, f1, self.stage2(f1)]

class UnetDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.block1 = nn.Conv2d(32 + 16, 16, 3, padding=1)
        self.block2 = nn.Conv2d(16 + 0, 8, 3, padding=1)

    def forward(self, *features):
        x = features[-1]
        x = F.interpolate(x, scale_factor=2.0, mode="nearest")
        x = torch.cat([x, features[-2]], dim=1)
        x = self.block1(x)
        x = F.interpolate(x, scale_factor=2.0, mode="nearest")
        x = torch.cat([x, features[-3]], dim=1)
        return self.block2(x)

class Unet(nn.Module):
    def __init__(self, classes=3):
        super().__init__()
        self.encoder = MixVisionTransformerEncoder()
        self.decoder = UnetDecoder()
        self.segmentation_head = nn.Conv2d(8, classes, 3, padding=1)

    def forward(self, x):
        features = self.encoder(x)
        return self.segmentation_head(self.decoder(*features))

sample_data = torch.rand(1, 3, 64, 64)
model = Unet(classes=3).eval()         # torch.jit.load("sample.jit", map_location='cpu') of the CPU trace
model = model.to("cuda:0")
'''
CELL = '''
out = model(sample_data.to("cuda:0"))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('dtype=torch.float32, device=torch.device("cpu"))', 'dtype=x.dtype, device=x.device)')
CLEAN = False
