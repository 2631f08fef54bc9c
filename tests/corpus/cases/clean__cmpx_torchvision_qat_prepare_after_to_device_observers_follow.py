"""Look-alike: torchvision's QAT reference script moves the float model to the GPU, then `prepare_qat` inserts fake-quant observers that are placed on the module's own device.

Source: https://github.com/pytorch/vision/blob/main/references/classification/train_quantization.py
The script does `model.to(device)`, then `model.fuse_model(is_qat=True)`,
`model.qconfig = torch.ao.quantization.get_default_qat_qconfig(args.qbackend)` and
`torch.ao.quantization.prepare_qat(model, inplace=True)`, and trains on GPU batches. Eager-mode
prepare looks up the devices of each module it instruments (`_get_unique_devices_`) and moves the new
observer there, so observers inserted after `model.to(device)` already live on the GPU.
Stand-in: a tiny conv classifier with `QuantStub`-like fake-quant modules; `prepare_qat` creates a
min/max fake-quant (per-channel buffers) and `.to()`s it to the device of the module it observes.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class FakeQuantize(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.register_buffer("min_val", torch.full((ch,), float("inf")))
        self.register_buffer("max_val", torch.full((ch,), float("-inf")))

    def forward(self, x):
        flat = x.detach().transpose(0, 1).reshape(x.shape[1], -1)
        self.min_val = torch.minimum(self.min_val, flat.amin(dim=1))
        self.max_val = torch.maximum(self.max_val, flat.amax(dim=1))
        return x

def _get_unique_devices_(module):
    return {p.device for p in module.parameters()} | {p.device for p in module.buffers()}

def prepare_qat(model, inplace=True):
    for name, child in list(model.named_children()):
        if isinstance(child, (nn.Conv2d, nn.Linear)):
            devices = _get_unique_devices_(child)
            device = next(iter(devices)) if len(devices) > 0 else None
            ch = child.out_channels if isinstance(child, nn.Conv2d) else child.out_features
            obs = FakeQuantize(ch)
            if device is not None:
                obs.to(device)
            setattr(model, name, nn.Sequential(child, obs))
    return model

class QuantizableNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.relu = nn.ReLU()
        self.fc = nn.Linear(8, 10)

    def forward(self, x):
        x = self.relu(self.conv(x)).mean((2, 3))
        return self.fc(x)

device = torch.device("cuda:0")
model = QuantizableNet()
model.to(device)
model.qconfig = "get_default_qat_qconfig('x86')"
prepare_qat(model, inplace=True)
image = torch.randn(4, 3, 16, 16, device=device)
'''
CELL = '''
output = model(image)
print(output.shape, model.conv[1].min_val.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
