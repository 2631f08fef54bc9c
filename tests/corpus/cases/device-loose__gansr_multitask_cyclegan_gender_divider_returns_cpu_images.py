"""multitask-CycleGAN: `util.gender_divider` returns the male/female image batches on the CPU while the nets are cuda.

Source: https://github.com/eveningglow/multitask-CycleGAN/issues/3
`python train.py` failed with "Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor)
should be the same". The Solver casts the batch with `.type(torch.cuda.FloatTensor)`, but
`gender_divider` splits it through numpy and casts back with `dtype = type(img)`, which since PyTorch
0.4 is `torch.Tensor`, i.e. a CPU tensor; the answer in the thread moves the split batches with
`male_img, female_img = male_img.cuda(), female_img.cuda()`. Networks are small stand-ins; the split
is done with `index_select` on the loader's CPU batch (the simulator cannot go through numpy), with
the same CPU result.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn
from torch.autograd import Variable

class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(nn.Conv2d(3, 8, 4, 2, 1), nn.InstanceNorm2d(8, affine=True), nn.LeakyReLU(0.2))
        self.gan = nn.Conv2d(8, 1, 3, 1, 1)
        self.cls = nn.Linear(8 * 8 * 8, 2)
    def forward(self, x):
        h = self.main(x)
        return self.gan(h), self.cls(h.view(h.size(0), -1))

class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(nn.Conv2d(3, 8, 3, 1, 1), nn.InstanceNorm2d(8, affine=True), nn.ReLU(),
                                  nn.Conv2d(8, 3, 3, 1, 1), nn.Tanh())
    def forward(self, x):
        return self.main(x)

def gender_divider(img, label_list):
    # util.gender_divider: img.cpu().numpy() split by label, torch.from_numpy(...).type(type(img))
    male_idx = torch.tensor([i for i, l in enumerate(label_list) if l == 0])
    female_idx = torch.tensor([i for i, l in enumerate(label_list) if l == 1])
    return torch.index_select(img, 0, male_idx), torch.index_select(img, 0, female_idx)

class Solver:
    def __init__(self, device):
        self.device = device            # torch.cuda.FloatTensor / torch.cuda.LongTensor in the repo
        self.D_M = Discriminator().to(device)
        self.D_F = Discriminator().to(device)
        self.G_MF = Generator().to(device)
        self.G_FM = Generator().to(device)
        self.criterion_gan = nn.MSELoss()
        self.criterion_cyc = nn.L1Loss()
        self.criterion_cls = nn.CrossEntropyLoss()

solver = Solver(torch.device("cuda:0"))
REAL, FAKE = 1, 0
label_list = [0, 1, 0, 1]
image_cpu = torch.rand(4, 3, 16, 16) * 2 - 1             # one batch of self.dloader
male_img, female_img = gender_divider(image_cpu, label_list)
image = image_cpu.to(solver.device)                      # image.type(self.dtype)
label = torch.tensor(label_list).to(solver.device)       # label.type(self.ltype)
male_img, female_img = Variable(male_img), Variable(female_img)
'''
CELL = '''
real_score, _ = solver.D_M(male_img)
real_label = torch.ones(real_score.size()).to(solver.device)
real_loss = solver.criterion_gan(real_score, real_label)
fake_img = solver.G_MF(male_img)
fake_score, gender_score = solver.D_F(fake_img)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["male_img"]
FIX = "namespace"
REFERENCE_FIX = '''
male_img, female_img = male_img.to(solver.device), female_img.to(solver.device)
'''
REFERENCE_EDIT = None
CLEAN = False
