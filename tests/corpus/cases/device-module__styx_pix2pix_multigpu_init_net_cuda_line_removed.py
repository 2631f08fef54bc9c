"""pix2pix with `--gpu_ids 0,1`: the generator was wrapped in DataParallel without first being moved to GPU 0.

Source: https://github.com/junyanz/pytorch-CycleGAN-and-pix2pix/issues/252
Training pix2pix on two GPUs failed in `Pix2PixModel.forward` at `self.netG(self.real_A)` inside
`DataParallel` ("Broadcast function not implemented for CPU tensors" on PyTorch 0.4). The maintainer
could reproduce it only by deleting the `.cuda(gpu_ids[0])` line in networks.py that moves the net to
the first GPU before wrapping it, and asked whether it had been removed; the user confirmed. The net's
weights stayed on the CPU while `set_input` put the batch on GPU 0. The U-Net is a small stand-in
with BatchNorm (`--norm batch`, running statistics off because the simulated GPU cannot update them in
place); the simulated CPU build makes DataParallel a plain wrapper, so the mismatch surfaces at the
first BatchNorm rather than in the broadcast.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import functools
import torch
import torch.nn as nn
from torch.nn import init
from types import SimpleNamespace

def get_norm_layer(norm_type='instance'):
    if norm_type == 'batch':
        norm_layer = functools.partial(nn.BatchNorm2d, affine=True, track_running_stats=False)
    elif norm_type == 'instance':
        norm_layer = functools.partial(nn.InstanceNorm2d, affine=False, track_running_stats=False)
    return norm_layer

def init_weights(net, init_type='normal', gain=0.02):
    def init_func(m):
        classname = m.__class__.__name__
        if hasattr(m, 'weight') and (classname.find('Conv') != -1 or classname.find('Linear') != -1):
            init.normal_(m.weight.data, 0.0, gain)
        elif classname.find('BatchNorm2d') != -1:
            init.normal_(m.weight.data, 1.0, gain)
            init.constant_(m.bias.data, 0.0)
    net.apply(init_func)

def init_net(net, init_type='normal', gpu_ids=[]):
    if len(gpu_ids) > 0:
        # (the line moving the net to gpu_ids[0] before wrapping it had been deleted here)
        net = torch.nn.DataParallel(net, gpu_ids)
    init_weights(net, init_type)
    return net

class UnetGenerator(nn.Module):
    """Stand-in for the U-Net generator: down/up convs with BatchNorm and a skip connection."""
    def __init__(self, input_nc, output_nc, ngf=8, norm_layer=nn.BatchNorm2d):
        super(UnetGenerator, self).__init__()
        self.down1 = nn.Conv2d(input_nc, ngf, 4, 2, 1)
        self.down2 = nn.Sequential(nn.LeakyReLU(0.2, True), nn.Conv2d(ngf, ngf * 2, 4, 2, 1), norm_layer(ngf * 2))
        self.up2 = nn.Sequential(nn.ReLU(True), nn.ConvTranspose2d(ngf * 2, ngf, 4, 2, 1), norm_layer(ngf))
        self.up1 = nn.Sequential(nn.ReLU(True), nn.ConvTranspose2d(ngf * 2, output_nc, 4, 2, 1), nn.Tanh())

    def forward(self, input):
        d1 = self.down1(input)
        u2 = self.up2(self.down2(d1))
        return self.up1(torch.cat([d1, u2], 1))

def define_G(input_nc, output_nc, ngf, which_model_netG, norm='batch', use_dropout=False, init_type='normal', gpu_ids=[]):
    norm_layer = get_norm_layer(norm_type=norm)
    netG = UnetGenerator(input_nc, output_nc, ngf, norm_layer=norm_layer)
    return init_net(netG, init_type, gpu_ids)

class Pix2PixModel:
    def initialize(self, opt):
        self.opt = opt
        self.gpu_ids = opt.gpu_ids
        self.netG = define_G(opt.input_nc, opt.output_nc, opt.ngf, opt.which_model_netG, opt.norm,
                             not opt.no_dropout, opt.init_type, self.gpu_ids)

    def set_input(self, input):
        AtoB = self.opt.which_direction == 'AtoB'
        self.real_A = input['A' if AtoB else 'B'].to("cuda:%d" % self.gpu_ids[0])   # .cuda(self.gpu_ids[0], async=True)
        self.real_B = input['B' if AtoB else 'A'].to("cuda:%d" % self.gpu_ids[0])

    def forward(self):
        self.fake_B = self.netG(self.real_A)

opt = SimpleNamespace(gpu_ids=[0, 1], input_nc=3, output_nc=3, ngf=8, which_model_netG='unet_256', norm='batch',
                      no_dropout=False, init_type='normal', which_direction='BtoA', batchSize=4)
model = Pix2PixModel()
model.initialize(opt)
data = {'A': torch.rand(4, 3, 32, 32) * 2 - 1, 'B': torch.rand(4, 3, 32, 32) * 2 - 1}
'''
CELL = '''
model.set_input(data)
model.forward()
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "must have its parameters and buffers on device")
CULPRITS = ["model.netG"]
FIX = "namespace"
REFERENCE_FIX = '''
model.netG.module.to("cuda:%d" % opt.gpu_ids[0])     # the removed net.cuda(gpu_ids[0])
'''
REFERENCE_EDIT = None
CLEAN = False
