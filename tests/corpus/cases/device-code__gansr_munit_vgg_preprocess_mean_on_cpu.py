"""MUNIT: `vgg_preprocess` builds the BGR mean image as a CPU tensor and subtracts it from the cuda batch (vgg_w > 0).

Source: https://github.com/NVlabs/MUNIT/issues/33
With `vgg_w: 1` training failed in `compute_vgg_loss` -> `vgg_preprocess(img)` at
`batch = batch.sub(Variable(mean))`: "Expected object of type torch.cuda.FloatTensor but found type
torch.FloatTensor". `mean = tensortype(batch.data.size())` with `tensortype = type(batch.data)` is a
CPU tensor in PyTorch >= 0.4 (type() of any tensor is torch.Tensor), so the mean image never reaches
the GPU; the answer in the thread moves it to the device (`.cuda()`; here it is moved
after it is filled, since the simulator cannot index a fake cuda tensor). The VGG16 and the generators
are small stand-ins; only the perceptual-loss path of `gen_update` is kept.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
from torch.autograd import Variable

def vgg_preprocess(batch):
    tensortype = torch.Tensor  # type(batch.data) in MUNIT (torch.Tensor since 0.4; a FakeTensor here)
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
        self.norm = nn.InstanceNorm2d(8, affine=True)
    def forward(self, X):
        return torch.relu(self.norm(self.conv1_1(X)))

class MUNIT_Trainer(nn.Module):
    def __init__(self):
        super(MUNIT_Trainer, self).__init__()
        self.gen_a = nn.Sequential(nn.Conv2d(3, 3, 3, padding=1), nn.Tanh())
        self.gen_b = nn.Sequential(nn.Conv2d(3, 3, 3, padding=1), nn.Tanh())
        self.vgg = Vgg16()
        self.instancenorm = nn.InstanceNorm2d(8, affine=False)
        self.vgg.eval()
        for param in self.vgg.parameters():
            param.requires_grad = False

    def compute_vgg_loss(self, vgg, img, target):
        img_vgg = vgg_preprocess(img)
        target_vgg = vgg_preprocess(target)
        img_fea = vgg(img_vgg)
        target_fea = vgg(target_vgg)
        return torch.mean((self.instancenorm(img_fea) - self.instancenorm(target_fea)) ** 2)

hyperparameters = {"vgg_w": 1}
trainer = MUNIT_Trainer().to("cuda:0")      # trainer.cuda()
images_a = torch.rand(1, 3, 16, 16).to("cuda:0") * 2 - 1
images_b = torch.rand(1, 3, 16, 16).to("cuda:0") * 2 - 1
'''
CELL = '''
x_ba = trainer.gen_a(images_b)
x_ab = trainer.gen_b(images_a)
loss_gen_vgg_a = trainer.compute_vgg_loss(trainer.vgg, x_ba, images_b) if hyperparameters['vgg_w'] > 0 else 0
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["mean"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("batch = batch.sub(Variable(mean)) # subtract mean",
                  "batch = batch.sub(Variable(mean.to(batch.device))) # subtract mean")
CLEAN = False
