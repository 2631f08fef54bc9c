"""StarGAN on RaFD: the domain labels reach `F.cross_entropy` as a FloatTensor.

Source: https://github.com/yunjey/stargan/issues/7
Training StarGAN on the Radboud (RaFD) faces failed in the discriminator's classification loss
`d_loss_cls = F.cross_entropy(out_cls, real_label)`; asked to print the label type, the user got
`<class 'torch.FloatTensor'>`, and the answer in the thread: "label value should be LongTensor". For
RaFD (single-label, softmax) the class indices must be int64; the float labels came from the user's
data preparation. Discriminator is a small stand-in with the same `(out_src, out_cls)` heads.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class Discriminator(nn.Module):
    def __init__(self, image_size=16, conv_dim=8, c_dim=8, repeat_num=2):
        super(Discriminator, self).__init__()
        layers = [nn.Conv2d(3, conv_dim, kernel_size=4, stride=2, padding=1), nn.LeakyReLU(0.01)]
        curr_dim = conv_dim
        for i in range(1, repeat_num):
            layers.append(nn.Conv2d(curr_dim, curr_dim * 2, kernel_size=4, stride=2, padding=1))
            layers.append(nn.LeakyReLU(0.01))
            curr_dim = curr_dim * 2
        k_size = int(image_size / (2 ** repeat_num))
        self.main = nn.Sequential(*layers)
        self.conv1 = nn.Conv2d(curr_dim, 1, kernel_size=3, stride=1, padding=1, bias=False)
        self.conv2 = nn.Conv2d(curr_dim, c_dim, kernel_size=k_size, bias=False)
    def forward(self, x):
        h = self.main(x)
        out_real = self.conv1(h)
        out_aux = self.conv2(h)
        return out_real.squeeze(), out_aux.view(out_aux.size(0), out_aux.size(1))

dataset = 'RaFD'
D = Discriminator()
d_optimizer = torch.optim.Adam(D.parameters(), 0.0001, [0.5, 0.999])
real_x = torch.rand(4, 3, 16, 16) * 2 - 1          # one batch of the RaFD loader
real_label = torch.tensor([0., 3., 5., 7.])        # printed as torch.FloatTensor
'''
CELL = '''
out_src, out_cls = D(real_x)
d_loss_real = - torch.mean(out_src)
if dataset == 'CelebA':
    d_loss_cls = F.binary_cross_entropy_with_logits(out_cls, real_label) / real_x.size(0)
else:
    d_loss_cls = F.cross_entropy(out_cls, real_label)
'''
EXPECT_ERROR = ("expected scalar type Long but found Float", "expected target dtype to be Long")
CULPRITS = ["real_label"]
FIX = "namespace"
REFERENCE_FIX = '''
real_label = real_label.long()
'''
REFERENCE_EDIT = None
CLEAN = False
