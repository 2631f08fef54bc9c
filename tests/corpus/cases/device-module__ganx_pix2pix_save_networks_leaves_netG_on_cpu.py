"""pix2pix/CycleGAN: `save_networks` moves each net to cuda *before* `net.module.cpu()`, leaving it on the CPU.

Source: https://github.com/junyanz/pytorch-CycleGAN-and-pix2pix/issues/253
After commit e2b72f5, training crashed right after "saving the latest model" at
`self.fake_B = self.netG(self.real_A)` with "Input type (torch.cuda.FloatTensor) and weight type
(torch.FloatTensor) should be the same": `BaseModel.save_networks` ran `net.cuda(self.gpu_ids[0])`
and then `torch.save(net.module.cpu().state_dict(), save_path)`, so every net stayed on the CPU while
the next batch came in on cuda. The reporter's fix, applied by the maintainers (ea3b646): swap the two
lines (save from the CPU copy first, then move the net back to the GPU). Stand-ins: `torch.save` writes
to an in-memory dict, the U-Net generator is two conv/BatchNorm blocks, `.cuda(id)` is written
`.to(f"cuda:{id}")` for the CPU simulator; `DataParallel` is the real class. The simulator's conv does
not check devices and its train-mode BatchNorm cannot update running stats on a fake GPU, so the
BatchNorm keeps no running stats and is where the mismatch shows ("Expected all tensors ...").
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import os
import argparse
import torch
from torch import nn

_DISK = {}
def torch_save(obj, path):          # stand-in for torch.save
    _DISK[path] = obj

class UnetGenerator(nn.Module):
    """Stand-in for networks.UnetGenerator (unet_256, norm=batch)."""
    def __init__(self, input_nc=3, output_nc=3, ngf=8):
        super().__init__()
        self.model = nn.Sequential(
            nn.Conv2d(input_nc, ngf, 4, 2, 1), nn.BatchNorm2d(ngf, track_running_stats=False), nn.LeakyReLU(0.2),
            nn.Upsample(scale_factor=2), nn.Conv2d(ngf, output_nc, 3, 1, 1), nn.Tanh())
    def forward(self, input):
        return self.model(input)

def init_net(net, gpu_ids=[]):
    if len(gpu_ids) > 0:
        net.to(f"cuda:{gpu_ids[0]}")
        net = torch.nn.DataParallel(net, gpu_ids)
    return net

class BaseModel():
    def initialize(self, opt):
        self.opt = opt
        self.gpu_ids = opt.gpu_ids
        self.isTrain = opt.isTrain
        self.device = torch.device('cuda:{}'.format(self.gpu_ids[0])) if self.gpu_ids else torch.device('cpu')
        self.save_dir = os.path.join(opt.checkpoints_dir, opt.name)
        self.model_names = []

    # save models to the disk
    def save_networks(self, which_epoch):
        for name in self.model_names:
            if isinstance(name, str):
                save_filename = '%s_net_%s.pth' % (which_epoch, name)
                save_path = os.path.join(self.save_dir, save_filename)
                net = getattr(self, 'net' + name)

                if len(self.gpu_ids) > 0:
                    net.to(f"cuda:{self.gpu_ids[0]}")
                    torch_save(net.module.cpu().state_dict(), save_path)
                else:
                    torch_save(net.cpu().state_dict(), save_path)

class Pix2PixModel(BaseModel):
    def initialize(self, opt):
        BaseModel.initialize(self, opt)
        self.model_names = ['G']
        self.netG = init_net(UnetGenerator(), opt.gpu_ids)

    def set_input(self, input):
        AtoB = self.opt.which_direction == 'AtoB'
        self.real_A = input['A' if AtoB else 'B'].to(self.device)
        self.real_B = input['B' if AtoB else 'A'].to(self.device)

    def forward(self):
        self.fake_B = self.netG(self.real_A)

opt = argparse.Namespace(gpu_ids=[0], isTrain=True, checkpoints_dir='./checkpoints',
                         name='facades_pix2pix', which_direction='BtoA')
model = Pix2PixModel()
model.initialize(opt)
print('saving the latest model (epoch 5, total_steps 2000)')
model.save_networks('latest')
data = {'A': torch.rand(2, 3, 16, 16) * 2 - 1, 'B': torch.rand(2, 3, 16, 16) * 2 - 1}
'''
CELL = '''
model.set_input(data)
model.forward()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('''                    net.to(f"cuda:{self.gpu_ids[0]}")
                    torch_save(net.module.cpu().state_dict(), save_path)
''', '''                    torch_save(net.module.cpu().state_dict(), save_path)
                    net.to(f"cuda:{self.gpu_ids[0]}")
''')
CLEAN = False
