"""AWSRN super-resolution tested with `--cpu`: `forward` hard-codes `self.rgb_mean.cuda()`.

Source: https://github.com/ChaofWang/AWSRN/issues/14
Testing with the `--cpu` option failed in `awsrn.py` `forward` at
`x = (x - self.rgb_mean.cuda()*255)/127.5` with "Expected object of type torch.FloatTensor but found
type torch.cuda.FloatTensor for argument #3 'other'": the model and the LR image are on the CPU but the
mean is always sent to the GPU. The author: "you may delete .cuda() in line 134" (the same holds for
the matching line at the output). The AWSRN body is a small stand-in (head conv, one AWRU-like block,
pixel-shuffle tail); `.cuda()` is written `.to("cuda:0")` for the simulator.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
from types import SimpleNamespace

class AWSRN(nn.Module):
    def __init__(self, args):
        super(AWSRN, self).__init__()
        n_feats = args.n_feats
        scale = args.scale[0]
        self.rgb_mean = torch.autograd.Variable(torch.FloatTensor([0.4488, 0.4371, 0.4040])).view([1, 3, 1, 1])
        self.head = nn.Sequential(nn.Conv2d(args.n_colors, n_feats, 3, padding=1))
        self.body = nn.Sequential(nn.Conv2d(n_feats, n_feats, 3, padding=1), nn.ReLU(True),
                                  nn.Conv2d(n_feats, n_feats, 3, padding=1))
        self.tail = nn.Sequential(nn.Conv2d(n_feats, args.n_colors * scale * scale, 3, padding=1),
                                  nn.PixelShuffle(scale))
        self.skip = nn.Sequential(nn.Conv2d(args.n_colors, args.n_colors * scale * scale, 5, padding=2),
                                  nn.PixelShuffle(scale))

    def forward(self, x):
        x = (x - self.rgb_mean.to("cuda:0")*255)/127.5      # self.rgb_mean.cuda()
        s = self.skip(x)
        x = self.head(x)
        res = self.body(x)
        x = self.tail(res + x)
        x += s
        x = x*127.5 + self.rgb_mean.to("cuda:0")*255        # self.rgb_mean.cuda()
        return x

args = SimpleNamespace(cpu=True, n_feats=8, scale=[2], n_colors=3)
device = torch.device('cpu' if args.cpu else 'cuda')
model = AWSRN(args).to(device)
model.eval()
lr = torch.rand(1, 3, 16, 16).to(device) * 255          # one LR test image (rgb_range 255)
'''
CELL = '''
with torch.no_grad():
    sr = model(lr)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('''        x = (x - self.rgb_mean.to("cuda:0")*255)/127.5      # self.rgb_mean.cuda()
        s = self.skip(x)
        x = self.head(x)
        res = self.body(x)
        x = self.tail(res + x)
        x += s
        x = x*127.5 + self.rgb_mean.to("cuda:0")*255        # self.rgb_mean.cuda()''',
                  '''        x = (x - self.rgb_mean*255)/127.5
        s = self.skip(x)
        x = self.head(x)
        res = self.body(x)
        x = self.tail(res + x)
        x += s
        x = x*127.5 + self.rgb_mean*255''')
CLEAN = False
