"""NVlabs PWC-Net (PyTorch) `PWCDCNet.warp`: the grid and the validity mask are moved with `.cuda()`; with the net and the frames on the single default GPU that is the right device.

Source: https://github.com/NVlabs/PWC-Net/blob/master/PyTorch/models/PWCNet.py
(run with https://github.com/NVlabs/PWC-Net/blob/master/PyTorch/script_pwc.py)
`warp` builds the mesh grid with `torch.arange` on the CPU, then `if x.is_cuda: grid = grid.cuda()`,
and the mask as `torch.autograd.Variable(torch.ones(x.size())).cuda()`. script_pwc.py does
`net = net.cuda()` and `torch.cat(im_all, 1).cuda()`, so everything sits on the current device and
the `.cuda()` calls land next to the features. Look-alike: tensors made on the CPU inside a GPU
model's method and moved with a device-less `.cuda()` (the same code breaks once the net is put on
a second GPU, but not here). Stand-in: `.cuda()` written `.to("cuda:0")` (what it resolves to),
the network cut to the level-6/level-5 features, the Correlation CUDA op replaced by a channel-mean
product, F.grid_sample by a same-device elementwise stand-in, and the in-place grid scaling and mask
thresholding written out of place.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
from torch.autograd import Variable

def conv(in_planes, out_planes, kernel_size=3, stride=1, padding=1, dilation=1):
    return nn.Sequential(
            nn.Conv2d(in_planes, out_planes, kernel_size=kernel_size, stride=stride,
                        padding=padding, dilation=dilation, bias=True),
            nn.LeakyReLU(0.1))

def predict_flow(in_planes):
    return nn.Conv2d(in_planes,2,kernel_size=3,stride=1,padding=1,bias=True)

def deconv(in_planes, out_planes, kernel_size=4, stride=2, padding=1):
    return nn.ConvTranspose2d(in_planes, out_planes, kernel_size, stride, padding, bias=True)

def grid_sample(input, grid):
    # stand-in for nn.functional.grid_sample(input, grid)
    return input * grid.permute(0, 3, 1, 2).mean(1, keepdim=True)

class Correlation(nn.Module):
    # stand-in for correlation_package.modules.corr.Correlation (a CUDA extension)
    def __init__(self, md=4):
        super().__init__()
        self.nd = (2 * md + 1) ** 2

    def forward(self, a, b):
        return (a * b).mean(1, keepdim=True).expand(-1, self.nd, -1, -1)

class PWCDCNet(nn.Module):
    def __init__(self, md=4):
        super(PWCDCNet,self).__init__()
        self.conv5a  = conv(3,   32, kernel_size=3, stride=2)
        self.conv6a  = conv(32,  48, kernel_size=3, stride=2)
        self.corr    = Correlation(md)
        self.leakyRELU = nn.LeakyReLU(0.1)
        nd = (2*md+1)**2
        self.predict_flow6 = predict_flow(nd)
        self.deconv6 = deconv(2, 2, kernel_size=4, stride=2, padding=1)
        self.predict_flow5 = predict_flow(nd + 32 + 2)

    def warp(self, x, flo):
        """
        warp an image/tensor (im2) back to im1, according to the optical flow
        x: [B, C, H, W] (im2)
        flo: [B, 2, H, W] flow
        """
        B, C, H, W = x.size()
        # mesh grid
        xx = torch.arange(0, W).view(1,-1).repeat(H,1)
        yy = torch.arange(0, H).view(-1,1).repeat(1,W)
        xx = xx.view(1,1,H,W).repeat(B,1,1,1)
        yy = yy.view(1,1,H,W).repeat(B,1,1,1)
        grid = torch.cat((xx,yy),1).float()

        if x.is_cuda:
            grid = grid.to("cuda:0")   # grid.cuda()
        vgrid = Variable(grid) + flo

        # scale grid to [-1,1]
        vgrid = torch.cat([2.0*vgrid.narrow(1, 0, 1)/max(W-1,1)-1.0,
                           2.0*vgrid.narrow(1, 1, 1)/max(H-1,1)-1.0], 1)

        vgrid = vgrid.permute(0,2,3,1)
        output = grid_sample(x, vgrid)
        mask = torch.autograd.Variable(torch.ones(x.size())).to("cuda:0")   # .cuda()
        mask = grid_sample(mask, vgrid)

        mask = (mask >= 0.999).float()   # mask[mask<0.999] = 0; mask[mask>0] = 1

        return output*mask

    def forward(self,x):
        im1 = x.narrow(1, 0, 3)   # x[:,:3,:,:]
        im2 = x.narrow(1, 3, 3)   # x[:,3:,:,:]
        c15 = self.conv5a(im1)
        c25 = self.conv5a(im2)
        c16 = self.conv6a(c15)
        c26 = self.conv6a(c25)
        corr6 = self.leakyRELU(self.corr(c16, c26))
        flow6 = self.predict_flow6(corr6)
        up_flow6 = self.deconv6(flow6)
        warp5 = self.warp(c25, up_flow6*0.625)
        corr5 = self.leakyRELU(self.corr(c15, warp5))
        x = torch.cat((corr5, c15, up_flow6), 1)
        flow5 = self.predict_flow5(x)
        return flow5

net = PWCDCNet()
net = net.to("cuda:0")     # net.cuda()
net.eval()
im_all = torch.rand(1, 6, 64, 128).to("cuda:0")   # torch.cat(im_all, 1).cuda()
'''
CELL = '''
with torch.no_grad():
    flo = net(im_all)
flo = flo * 20.0
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
