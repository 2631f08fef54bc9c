"""Look-alike: timm `load_pretrained` adapts an fp16 RGB stem to one input channel and `load_state_dict` copies the half tensors into the fp32 model.

Source: https://github.com/huggingface/pytorch-image-models/blob/main/timm/models/_manipulate.py
`adapt_input_conv(in_chans, conv_weight)` records `conv_type = conv_weight.dtype`, does
`conv_weight = conv_weight.float()  # Some weights are in torch.half, ensure it's float for sum on CPU`,
sums the RGB filters for `in_chans == 1` and returns `conv_weight.to(conv_type)`; `load_pretrained`
(timm/models/_builder.py) then calls `model.load_state_dict(state_dict, strict=strict)`, which copies
(and casts) the fp16 hub tensors into the fp32 parameters. The half state dict stays in the namespace
but the model that runs is fp32, like its grayscale input: nothing to report. Stand-ins: a two-stage
ResNet-like model; the hub file is an fp16 state dict built in SETUP and returned by a
`load_state_dict_from_url` stand-in (no download).
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

def adapt_input_conv(in_chans, conv_weight):
    conv_type = conv_weight.dtype
    conv_weight = conv_weight.float()  # Some weights are in torch.half, ensure it's float for sum on CPU
    O, I, J, K = conv_weight.shape
    if in_chans == 1:
        if I > 3:
            assert conv_weight.shape[1] % 3 == 0
            # For models with space2depth stems
            conv_weight = conv_weight.reshape(O, I // 3, 3, J, K)
            conv_weight = conv_weight.sum(dim=2, keepdim=False)
        else:
            conv_weight = conv_weight.sum(dim=1, keepdim=True)
    elif in_chans != 3:
        if I != 3:
            raise NotImplementedError('Weight format not supported by conversion.')
        else:
            repeat = int(math.ceil(in_chans / 3))
            conv_weight = conv_weight.repeat(1, repeat, 1, 1)[:, :in_chans, :, :]
            conv_weight *= (3 / float(in_chans))
    conv_weight = conv_weight.to(conv_type)
    return conv_weight

class ResNet(nn.Module):
    def __init__(self, in_chans=3, num_classes=1000):
        super().__init__()
        self.conv1 = nn.Conv2d(in_chans, 16, kernel_size=7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.layer1 = nn.Sequential(nn.Conv2d(16, 32, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(32), nn.ReLU())
        self.fc = nn.Linear(32, num_classes)
        self.pretrained_cfg = dict(first_conv='conv1', classifier='fc', num_classes=1000)

    def forward(self, x):
        x = F.relu(self.bn1(self.conv1(x)))
        x = self.layer1(x)
        return self.fc(x.mean((2, 3)))

# the hub checkpoint, published in fp16 (RGB stem)
_HUB = {"resnet_fp16.pth": {k: v.half() for k, v in ResNet(in_chans=3).state_dict().items()}}

def load_state_dict_from_url(url, map_location='cpu', progress=False, check_hash=False):
    return _HUB[url]

def load_pretrained(model, pretrained_url, num_classes=1000, in_chans=3, strict=True):
    state_dict = load_state_dict_from_url(pretrained_url, map_location='cpu')
    input_convs = model.pretrained_cfg.get('first_conv', None)
    if input_convs is not None and in_chans != 3:
        weight_name = input_convs + '.weight'
        state_dict[weight_name] = adapt_input_conv(in_chans, state_dict[weight_name])
    model.load_state_dict(state_dict, strict=strict)
    return state_dict

model = ResNet(in_chans=1)
state_dict = load_pretrained(model, "resnet_fp16.pth", in_chans=1)
model.eval()
images = torch.rand(4, 1, 64, 64)  # grayscale, float32
'''
CELL = '''
with torch.no_grad():
    logits = model(images)
    probs = logits.softmax(dim=-1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
