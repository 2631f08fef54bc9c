"""Fast Human Pose Estimation demo: `--device cuda` moves the image but the loaded hourglass model stays on the CPU.

Source: https://github.com/yuanyuanli85/Fast_Human_Pose_Estimation_Pytorch/issues/7
`python tools/mpii_demo.py -a hg -s 2 -b 1 --mobile True --checkpoint .../model_best.pth.tar
--in_res 256 --device cuda` raised "Input type (torch.cuda.FloatTensor) and weight type
(torch.FloatTensor) should be the same": `load_model` builds the stacked hourglass and loads the
checkpoint with `map_location` to the CPU, and `inference` moves only the input to `device`. The
maintainer's fix (13fa58a) added `model = model.to(device)`. Stand-in: a 2-stack mini hourglass
(conv/batch-norm residual blocks), the demo's `load_model`/`inference` with the checkpoint load and
the scipy heatmap post-processing left out; the image preprocessing is the demo's, on random pixels.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
from types import SimpleNamespace
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

class Bottleneck(nn.Module):
    def __init__(self, planes):
        super().__init__()
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv1 = nn.Conv2d(planes, planes, 3, padding=1, bias=True)
        self.bn2 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, 3, padding=1, bias=True)

    def forward(self, x):
        out = self.conv1(F.relu(self.bn1(x)))
        out = self.conv2(F.relu(self.bn2(out)))
        return out + x

class HourglassNet(nn.Module):
    def __init__(self, num_stacks=2, num_blocks=1, num_classes=16, mobile=False, planes=32):
        super().__init__()
        self.num_stacks = num_stacks
        self.conv1 = nn.Conv2d(3, planes, kernel_size=7, stride=2, padding=3, bias=True)
        self.bn1 = nn.BatchNorm2d(planes)
        self.maxpool = nn.MaxPool2d(2, stride=2)
        self.hg = nn.ModuleList([nn.Sequential(*[Bottleneck(planes) for _ in range(num_blocks)])
                                 for _ in range(num_stacks)])
        self.score = nn.ModuleList([nn.Conv2d(planes, num_classes, 1) for _ in range(num_stacks)])

    def forward(self, x):
        out = []
        x = self.maxpool(F.relu(self.bn1(self.conv1(x))))
        for i in range(self.num_stacks):
            y = self.hg[i](x)
            out.append(self.score[i](y))
            x = x + y
        return out

def load_image(w, h):
    image = np.random.randint(0, 256, (h, w, 3)).astype(np.uint8)  # cv2.imread + cv2.resize
    image = image[:, :, ::-1]  # BGR -> RGB
    image = image / 255.0
    image = image - np.array([[[0.4404, 0.4440, 0.4327]]])  # Extract mean RGB
    image = image.transpose((2, 0, 1))  # Change data layout from HWC to CHW
    image = image[np.newaxis, :, :, :]
    return image

def load_model(arch, stacks, blocks, num_classes, mobile, checkpoint_resume):
    model = HourglassNet(num_stacks=stacks, num_blocks=blocks, num_classes=num_classes, mobile=mobile)
    # torch.load(checkpoint_resume, map_location=lambda storage, loc: storage) + load_state_dict
    print('    Total params: %.2fM' % (sum(p.numel() for p in model.parameters()) / 1000000.0))
    model.eval()
    return model

def inference(model, image, device):
    input_tensor = torch.from_numpy(image).float().to(device)
    output = model(input_tensor)
    output = output[-1]
    return output

args = SimpleNamespace(arch="hg", stacks=2, blocks=1, num_classes=16, mobile=True,
                       checkpoint="checkpoint/mpii_hg_s2_b1_mobile_fpd/model_best.pth.tar",
                       in_res=256, device="cuda:0")
model = load_model(args.arch, args.stacks, args.blocks, args.num_classes, args.mobile, args.checkpoint)
in_res_h, in_res_w = args.in_res, args.in_res
image = load_image(in_res_w, in_res_h)
'''
CELL = '''
with torch.no_grad():
    heatmaps = inference(model, image, args.device)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "should be the same")
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model = model.to(args.device)
'''
REFERENCE_EDIT = None
CLEAN = False
