"""Look-alike: pix2pix `save_networks` moves each net to the CPU to save it, then back to the GPU before training resumes.

Source: https://github.com/junyanz/pytorch-CycleGAN-and-pix2pix/blob/master/models/base_model.py
`BaseModel.save_networks` runs `torch.save(net.module.cpu().state_dict(), save_path)` and then
`net.cuda(self.gpu_ids[0])`: the checkpoint is written from CPU tensors on purpose (loadable without a
GPU), and the net is back on cuda:0 when the next batch arrives through `set_input(...).to(self.device)`.
Stand-ins: `torch.save` writes to an in-memory dict, the U-Net is two conv/BatchNorm blocks (no running
stats, for the simulator), `.cuda(id)` is `.to(f"cuda:{id}")`, and `torch.cuda.is_available()` is left
out of the test (the simulator has no CUDA runtime).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import os
import argparse
import torch
from torch import nn

_DISK = {}
def torch_save(obj, path):          # stand-in for torch.save
    _DISK[path] = obj

class UnetGenerator(nn.Module):
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
    def __init__(self, opt):
        self.opt = opt
        self.gpu_ids = opt.gpu_ids
        self.device = torch.device('cuda:{}'.format(self.gpu_ids[0])) if self.gpu_ids else torch.device('cpu')
        self.save_dir = os.path.join(opt.checkpoints_dir, opt.name)
        self.model_names = []

    def save_networks(self, epoch):
        for name in self.model_names:
            if isinstance(name, str):
                save_filename = '%s_net_%s.pth' % (epoch, name)
                save_path = os.path.join(self.save_dir, save_filename)
                net = getattr(self, 'net' + name)

                if len(self.gpu_ids) > 0:
                    torch_save(net.module.cpu().state_dict(), save_path)
                    net.to(f"cuda:{self.gpu_ids[0]}")
                else:
                    torch_save(net.cpu().state_dict(), save_path)

class Pix2PixModel(BaseModel):
    def __init__(self, opt):
        BaseModel.__init__(self, opt)
        self.model_names = ['G']
        self.netG = init_net(UnetGenerator(), opt.gpu_ids)

    def set_input(self, input):
        AtoB = self.opt.direction == 'AtoB'
        self.real_A = input['A' if AtoB else 'B'].to(self.device)
        self.real_B = input['B' if AtoB else 'A'].to(self.device)

    def forward(self):
        self.fake_B = self.netG(self.real_A)

opt = argparse.Namespace(gpu_ids=[0], checkpoints_dir='./checkpoints', name='facades_pix2pix', direction='BtoA')
model = Pix2PixModel(opt)
model.save_networks('latest')
data = {'A': torch.rand(2, 3, 16, 16) * 2 - 1, 'B': torch.rand(2, 3, 16, 16) * 2 - 1}
'''
CELL = '''
model.set_input(data)
model.forward()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
