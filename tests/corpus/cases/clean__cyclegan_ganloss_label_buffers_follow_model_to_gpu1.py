"""Look-alike: CycleGAN trained with `--gpu_ids 1`: the GAN loss keeps its labels as buffers moved with `.to(self.device)`.

Source: https://github.com/junyanz/pytorch-CycleGAN-and-pix2pix/issues/62
With `--gpu_ids 1` the old code failed ("Some of weight/gradient/input tensors are located on
different GPUs") because GANLoss built its targets with `torch.cuda.FloatTensor`, i.e. on GPU 0; the
maintainer later fixed it. In the current code `GANLoss` registers `real_label`/`fake_label` as
buffers and is built with `.to(self.device)` (`cuda:1`), the nets go to `gpu_ids[0]`, and
`set_input` moves the batch to the same device, so the generator losses run on cuda:1 with nothing
left on cuda:0 or the CPU. Generators/discriminators are small stand-ins.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
from types import SimpleNamespace

class GANLoss(nn.Module):
    def __init__(self, gan_mode, target_real_label=1.0, target_fake_label=0.0):
        super(GANLoss, self).__init__()
        self.register_buffer('real_label', torch.tensor(target_real_label))
        self.register_buffer('fake_label', torch.tensor(target_fake_label))
        self.gan_mode = gan_mode
        if gan_mode == 'lsgan':
            self.loss = nn.MSELoss()
        elif gan_mode == 'vanilla':
            self.loss = nn.BCEWithLogitsLoss()

    def get_target_tensor(self, prediction, target_is_real):
        if target_is_real:
            target_tensor = self.real_label
        else:
            target_tensor = self.fake_label
        return target_tensor.expand_as(prediction)

    def __call__(self, prediction, target_is_real):
        target_tensor = self.get_target_tensor(prediction, target_is_real)
        return self.loss(prediction, target_tensor)

def init_net(net, gpu_ids=[]):
    if len(gpu_ids) > 0:
        net.to(f"cuda:{gpu_ids[0]}")                # net.to(gpu_ids[0])
        net = torch.nn.DataParallel(net, gpu_ids)   # multi-GPUs
    return net

def define_G(input_nc, output_nc, gpu_ids):
    net = nn.Sequential(nn.Conv2d(input_nc, 8, 3, padding=1), nn.InstanceNorm2d(8), nn.ReLU(True),
                        nn.Conv2d(8, output_nc, 3, padding=1), nn.Tanh())
    return init_net(net, gpu_ids)

def define_D(input_nc, gpu_ids):
    net = nn.Sequential(nn.Conv2d(input_nc, 8, 4, 2, 1), nn.LeakyReLU(0.2, True), nn.Conv2d(8, 1, 4, 1, 1))
    return init_net(net, gpu_ids)

class CycleGANModel:
    def __init__(self, opt):
        self.opt = opt
        self.gpu_ids = opt.gpu_ids
        self.device = torch.device('cuda:{}'.format(self.gpu_ids[0])) if self.gpu_ids else torch.device('cpu')
        self.netG_A = define_G(3, 3, self.gpu_ids)
        self.netG_B = define_G(3, 3, self.gpu_ids)
        self.netD_A = define_D(3, self.gpu_ids)
        self.netD_B = define_D(3, self.gpu_ids)
        self.criterionGAN = GANLoss(opt.gan_mode).to(self.device)
        self.criterionCycle = torch.nn.L1Loss()

    def set_input(self, input):
        AtoB = self.opt.direction == 'AtoB'
        self.real_A = input['A' if AtoB else 'B'].to(self.device)
        self.real_B = input['B' if AtoB else 'A'].to(self.device)

    def forward(self):
        self.fake_B = self.netG_A(self.real_A)
        self.rec_A = self.netG_B(self.fake_B)
        self.fake_A = self.netG_B(self.real_B)
        self.rec_B = self.netG_A(self.fake_A)

opt = SimpleNamespace(gpu_ids=[1], gan_mode='lsgan', direction='AtoB', lambda_A=10.0, lambda_B=10.0)
model = CycleGANModel(opt)
data = {'A': torch.randn(1, 3, 32, 32), 'B': torch.randn(1, 3, 32, 32)}
'''
CELL = '''
model.set_input(data)
model.forward()
loss_G_A = model.criterionGAN(model.netD_A(model.fake_B), True)
loss_G_B = model.criterionGAN(model.netD_B(model.fake_A), True)
loss_cycle_A = model.criterionCycle(model.rec_A, model.real_A) * opt.lambda_A
loss_cycle_B = model.criterionCycle(model.rec_B, model.real_B) * opt.lambda_B
loss_G = loss_G_A + loss_G_B + loss_cycle_A + loss_cycle_B
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
