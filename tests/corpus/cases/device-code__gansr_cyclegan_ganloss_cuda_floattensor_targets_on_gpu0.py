"""CycleGAN (2017 code) with `--gpu_ids 1`: GANLoss builds its targets with `torch.cuda.FloatTensor`, i.e. on GPU 0.

Source: https://github.com/junyanz/pytorch-CycleGAN-and-pix2pix/issues/22
The reporter found that with a gpu id other than 0 some tensors are made with `self.Tensor(*shape)`
(`torch.cuda.FloatTensor`), as in `GANLoss.get_target_tensor`: such a tensor is allocated on the current
device, GPU 0, while the networks and the batch live on GPU 1, so the loss fails with "Some of
weight/gradient/input tensors are located on different GPUs". The maintainer confirmed it and later
fixed GANLoss (targets are made to follow the prediction's device). `torch.cuda.FloatTensor(size)` is
written as a helper that allocates on cuda:0 (the simulator has no current-device state); networks are
small stand-ins.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
from torch.autograd import Variable

def cuda_FloatTensor(*size):
    # torch.cuda.FloatTensor(*size): allocated on the current CUDA device, which is GPU 0
    return torch.empty(*size, device="cuda:0")

class GANLoss(nn.Module):
    def __init__(self, use_lsgan=True, target_real_label=1.0, target_fake_label=0.0,
                 tensor=torch.FloatTensor):
        super(GANLoss, self).__init__()
        self.real_label = target_real_label
        self.fake_label = target_fake_label
        self.real_label_var = None
        self.fake_label_var = None
        self.Tensor = tensor
        if use_lsgan:
            self.loss = nn.MSELoss()
        else:
            self.loss = nn.BCELoss()

    def get_target_tensor(self, input, target_is_real):
        target_tensor = None
        if target_is_real:
            create_label = ((self.real_label_var is None) or
                            (self.real_label_var.numel() != input.numel()))
            if create_label:
                real_tensor = self.Tensor(input.size()).fill_(self.real_label)
                self.real_label_var = Variable(real_tensor, requires_grad=False)
            target_tensor = self.real_label_var
        else:
            create_label = ((self.fake_label_var is None) or
                            (self.fake_label_var.numel() != input.numel()))
            if create_label:
                fake_tensor = self.Tensor(input.size()).fill_(self.fake_label)
                self.fake_label_var = Variable(fake_tensor, requires_grad=False)
            target_tensor = self.fake_label_var
        return target_tensor

    def __call__(self, input, target_is_real):
        target_tensor = self.get_target_tensor(input, target_is_real)
        return self.loss(input, target_tensor)

class CycleGANModel:
    def initialize(self, opt):
        self.gpu_ids = opt["gpu_ids"]
        self.Tensor = cuda_FloatTensor if self.gpu_ids else torch.Tensor
        dev = "cuda:%d" % self.gpu_ids[0]
        self.netG_A = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.InstanceNorm2d(8, affine=True),
                                    nn.ReLU(True), nn.Conv2d(8, 3, 3, padding=1), nn.Tanh()).to(dev)
        self.netD_A = nn.Sequential(nn.Conv2d(3, 8, 4, 2, 1), nn.LeakyReLU(0.2, True),
                                    nn.Conv2d(8, 1, 4, 1, 1)).to(dev)
        self.criterionGAN = GANLoss(use_lsgan=not opt["no_lsgan"], tensor=self.Tensor)
        self.criterionCycle = torch.nn.L1Loss()

    def set_input(self, input):
        self.input_A = input["A"].to("cuda:%d" % self.gpu_ids[0])

opt = {"gpu_ids": [1], "no_lsgan": False}       # train.py --gpu_ids 1
model = CycleGANModel()
model.initialize(opt)
model.set_input({"A": torch.randn(1, 3, 32, 32)})
'''
CELL = '''
real_A = Variable(model.input_A)
fake_B = model.netG_A(real_A)
pred_fake = model.netD_A(fake_B)
loss_G_A = model.criterionGAN(pred_fake, True)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.criterionGAN"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("real_tensor = self.Tensor(input.size()).fill_(self.real_label)",
                  "real_tensor = torch.empty(input.size(), device=input.device).fill_(self.real_label)")
CLEAN = False
