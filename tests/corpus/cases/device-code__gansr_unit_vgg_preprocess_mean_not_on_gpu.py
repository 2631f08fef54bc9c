"""UNIT (coupled-GAN image translation) on a custom dataset with the VGG loss: `vgg_preprocess` subtracts a CPU mean image from the cuda batch.

Source: https://github.com/mingyuliutw/UNIT/issues/74
Training on the user's own data failed in `trainer.gen_update` -> `compute_vgg_loss` ->
`utils.vgg_preprocess` at `batch = batch.sub(Variable(mean)) # subtract mean` with "Expected object of
type torch.cuda.FloatTensor but found type torch.FloatTensor for argument #3 'other'". The mean image
is built from `tensortype = type(batch.data)`, which is the CPU `torch.Tensor` class in PyTorch >= 0.4;
the answer in the thread: `batch = batch.sub(Variable(mean).cuda())` (here: to the batch's device).
The UNIT generators/VGG16 are small stand-ins; only the perceptual-loss path is kept.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
from torch.autograd import Variable

def vgg_preprocess(batch):
    tensortype = torch.Tensor   # type(batch.data): torch.Tensor since 0.4 (a FakeTensor in this simulation)
    (r, g, b) = torch.chunk(batch, 3, dim = 1)
    batch = torch.cat((b, g, r), dim = 1) # convert RGB to BGR
    batch = (batch + 1) * 255 * 0.5 # [-1, 1] -> [0, 255]
    mean = tensortype(batch.data.size())
    mean[:, 0, :, :] = 103.939
    mean[:, 1, :, :] = 116.779
    mean[:, 2, :, :] = 123.680
    batch = batch.sub(Variable(mean)) # subtract mean
    return batch

class Vgg16(nn.Module):
    def __init__(self):
        super(Vgg16, self).__init__()
        self.conv1_1 = nn.Conv2d(3, 8, kernel_size=3, stride=1, padding=1)
        self.conv1_2 = nn.Conv2d(8, 8, kernel_size=3, stride=1, padding=1)
    def forward(self, X):
        h = torch.relu(self.conv1_1(X))
        return torch.relu(self.conv1_2(h))

class UNIT_Trainer(nn.Module):
    def __init__(self, hyperparameters):
        super(UNIT_Trainer, self).__init__()
        self.gen_a = nn.Sequential(nn.Conv2d(3, 3, 3, padding=1), nn.Tanh())
        self.gen_b = nn.Sequential(nn.Conv2d(3, 3, 3, padding=1), nn.Tanh())
        self.instancenorm = nn.InstanceNorm2d(8, affine=False)
        if 'vgg_w' in hyperparameters.keys() and hyperparameters['vgg_w'] > 0:
            self.vgg = Vgg16()
            self.vgg.eval()
            for param in self.vgg.parameters():
                param.requires_grad = False

    def compute_vgg_loss(self, vgg, img, target):
        img_vgg = vgg_preprocess(img)
        target_vgg = vgg_preprocess(target)
        img_fea = vgg(img_vgg)
        target_fea = vgg(target_vgg)
        return torch.mean((self.instancenorm(img_fea) - self.instancenorm(target_fea)) ** 2)

config = {"vgg_w": 1}
trainer = UNIT_Trainer(config)
trainer.to("cuda:0")                       # trainer.cuda()
images_a = (torch.rand(1, 3, 16, 16) * 2 - 1).to("cuda:0")
images_b = (torch.rand(1, 3, 16, 16) * 2 - 1).to("cuda:0")
'''
CELL = '''
x_ba = trainer.gen_a(images_b)
x_ab = trainer.gen_b(images_a)
loss_gen_vgg_a = trainer.compute_vgg_loss(trainer.vgg, x_ba, images_b) if config['vgg_w'] > 0 else 0
loss_gen_vgg_b = trainer.compute_vgg_loss(trainer.vgg, x_ab, images_a) if config['vgg_w'] > 0 else 0
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["mean"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("batch = batch.sub(Variable(mean)) # subtract mean",
                  "batch = batch.sub(Variable(mean).to(batch.device)) # subtract mean")
CLEAN = False
