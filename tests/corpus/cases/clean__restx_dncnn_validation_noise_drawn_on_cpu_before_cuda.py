"""DnCNN-PyTorch train.py validation: Gaussian noise is drawn on the CPU and added before the pair goes to the GPU.

Source: https://github.com/SaoYan/DnCNN-PyTorch/blob/master/train.py
Each validation image comes from a CPU dataset; `noise = torch.FloatTensor(img_val.size()).normal_(
mean=0, std=opt.val_noiseL/255.)` is a CPU tensor, `imgn_val = img_val + noise` is formed on the CPU,
and only then are both moved (`Variable(img_val.cuda(), ...)`, `Variable(imgn_val.cuda(), ...)`) to
the `nn.DataParallel(net).cuda()` model, which predicts the noise residual. A CPU noise tensor next to
a GPU model, on purpose; it runs.
Stand-ins: the repo's DnCNN with 5 layers instead of 17, a two-image validation list, and
`.to(device)` for `.cuda()` (the GPU is simulated by meta); batch_PSNR (numpy) is left out.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
from torch.autograd import Variable

device = torch.device("meta")     # the GPU (`.cuda()`), simulated

class DnCNN(nn.Module):
    def __init__(self, channels, num_of_layers=17):
        super(DnCNN, self).__init__()
        kernel_size, padding, features = 3, 1, 16
        layers = [nn.Conv2d(channels, features, kernel_size, padding=padding, bias=False), nn.ReLU(inplace=True)]
        for _ in range(num_of_layers - 2):
            layers += [nn.Conv2d(features, features, kernel_size, padding=padding, bias=False),
                       nn.BatchNorm2d(features), nn.ReLU(inplace=True)]
        layers.append(nn.Conv2d(features, channels, kernel_size, padding=padding, bias=False))
        self.dncnn = nn.Sequential(*layers)

    def forward(self, x):
        return self.dncnn(x)

class Opt:
    num_of_layers = 5
    val_noiseL = 25
opt = Opt()
net = DnCNN(channels=1, num_of_layers=opt.num_of_layers)
device_ids = [0]
model = nn.DataParallel(net, device_ids=device_ids).to(device)
dataset_val = [torch.rand(1, 40, 40) for _ in range(2)]
'''
CELL = '''
model.eval()
with torch.no_grad():
    for k in range(len(dataset_val)):
        img_val = torch.unsqueeze(dataset_val[k], 0)
        noise = torch.FloatTensor(img_val.size()).normal_(mean=0, std=opt.val_noiseL / 255.)
        imgn_val = img_val + noise
        img_val, imgn_val = Variable(img_val.to(device)), Variable(imgn_val.to(device))
        out_val = torch.clamp(imgn_val - model(imgn_val), 0., 1.)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
