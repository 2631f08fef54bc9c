"""ssd.pytorch test.py on the GPU: `net.cuda()` leaves the SSD's `self.priors` Variable on the CPU.

Source: https://github.com/amdegroot/ssd.pytorch/issues/47
"Running on GPU errors": test.py failed in `Detect.forward` -> `decode(loc_data[i], prior_data,
self.variance)` at `priors[:, :2] + loc[:, :2] * variances[0] * priors[:, 2:]` with a
FloatTensor/cuda.FloatTensor type error. `SSD.__init__` builds `self.priors =
Variable(self.priorbox.forward(), volatile=True)`, a plain attribute that `net.cuda()` does not
move, while the locations come out of the CUDA heads. The suggested fix was train.py's
`torch.set_default_tensor_type('torch.cuda.FloatTensor')` so the priors are created on the GPU.
Stand-in: a tiny base/head SSD with PriorBox and Detect reduced to box decoding (no NMS);
`.cuda()` is written `.to("cuda:0")`.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import itertools
import torch
import torch.nn as nn
from torch.autograd import Variable

def decode(loc, priors, variances):
    boxes = torch.cat((
        priors[:, :2] + loc[:, :2] * variances[0] * priors[:, 2:],
        priors[:, 2:] * torch.exp(loc[:, 2:] * variances[1])), 1)
    return boxes    # (the in-place center-to-corner conversion is left out)

class PriorBox(object):
    def __init__(self, feature_maps=(8, 4), min_sizes=(0.2, 0.5)):
        self.feature_maps, self.min_sizes = feature_maps, min_sizes

    def forward(self):
        mean = []
        for k, f in enumerate(self.feature_maps):
            for i, j in itertools.product(range(f), repeat=2):
                cx, cy = (j + 0.5) / f, (i + 0.5) / f
                s = self.min_sizes[k]
                mean += [cx, cy, s, s]
        return torch.Tensor(mean).view(-1, 4)

class Detect(object):
    def __init__(self, num_classes):
        self.num_classes = num_classes
        self.variance = [0.1, 0.2]

    def __call__(self, loc_data, conf_data, prior_data):
        num = loc_data.size(0)
        output = []
        for i in range(num):
            decoded_boxes = decode(loc_data[i], prior_data, self.variance)
            output.append(torch.cat((decoded_boxes, conf_data.view(num, -1, self.num_classes)[i]), 1))
        return torch.stack(output)

class SSD(nn.Module):
    def __init__(self, phase, num_classes=3):
        super(SSD, self).__init__()
        self.phase = phase
        self.num_classes = num_classes
        self.priorbox = PriorBox()
        self.priors = Variable(self.priorbox.forward(), volatile=True)
        self.vgg = nn.ModuleList([nn.Conv2d(3, 8, 3, stride=4, padding=1),
                                  nn.Conv2d(8, 8, 3, stride=2, padding=1)])
        self.loc = nn.ModuleList([nn.Conv2d(8, 4, 3, padding=1), nn.Conv2d(8, 4, 3, padding=1)])
        self.conf = nn.ModuleList([nn.Conv2d(8, num_classes, 3, padding=1),
                                   nn.Conv2d(8, num_classes, 3, padding=1)])
        if phase == 'test':
            self.softmax = nn.Softmax(dim=-1)
            self.detect = Detect(num_classes)

    def forward(self, x):
        sources, loc, conf = [], [], []
        for v in self.vgg:
            x = torch.relu(v(x))
            sources.append(x)
        for (x, l, c) in zip(sources, self.loc, self.conf):
            loc.append(l(x).permute(0, 2, 3, 1).contiguous())
            conf.append(c(x).permute(0, 2, 3, 1).contiguous())
        loc = torch.cat([o.view(o.size(0), -1) for o in loc], 1)
        conf = torch.cat([o.view(o.size(0), -1) for o in conf], 1)
        if self.phase == "test":
            output = self.detect(
                loc.view(loc.size(0), -1, 4),                   # loc preds
                self.softmax(conf.view(-1, self.num_classes)),  # conf preds
                self.priors                                     # default boxes
            )
        else:
            output = (loc.view(loc.size(0), -1, 4), conf.view(conf.size(0), -1, self.num_classes), self.priors)
        return output

def build_ssd(phase, size=32, num_classes=3):
    return SSD(phase, num_classes)

net = build_ssd('test', 32, 3)      # initialize SSD
net.eval()
net = net.to("cuda:0")              # if args.cuda: net = net.cuda()
img = torch.rand(3, 32, 32)         # transformed test image
x = Variable(img.unsqueeze(0))
x = x.to("cuda:0")                  # if args.cuda: x = x.cuda()
'''
CELL = '''
y = net(x)      # forward pass
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["net.priors"]
FIX = "namespace"
REFERENCE_FIX = '''
net.priors = net.priors.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
