"""MSG-Net style transfer: `subtract_imagenet_mean_batch` builds the mean with `type(batch.data)(size)`, a CPU tensor.

Source: https://github.com/avinash-mishra/gan-style-transfer/issues/4
The helper was written for old PyTorch, where `type(batch.data)` was `torch.cuda.FloatTensor` for
a cuda batch; today it is `torch.Tensor`, so `mean = tensortype(batch.data.size())` is a CPU tensor
and `batch - Variable(mean)` raised "Expected all tensors to be on the same device, cuda:0 and cpu"
on the style image. Simulated with meta as the accelerator (`type()` of a fake tensor would not be
`torch.Tensor`); Net/Vgg16 are small stand-ins.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn
from torch.autograd import Variable

def subtract_imagenet_mean_batch(batch):
    """Subtract ImageNet mean pixel-wise from a BGR image."""
    tensortype = type(batch.data)
    mean = tensortype(batch.data.size())
    mean[:, 0, :, :] = 103.939
    mean[:, 1, :, :] = 116.779
    mean[:, 2, :, :] = 123.680
    return batch - Variable(mean)

def gram_matrix(y):
    (b, ch, h, w) = y.size()
    features = y.view(b, ch, w * h)
    return features.bmm(features.transpose(1, 2)) / (ch * h * w)

class Vgg16(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1_1 = nn.Conv2d(3, 8, 3, padding=1)
        self.conv2_1 = nn.Conv2d(8, 16, 3, padding=1)

    def forward(self, X):
        h = torch.relu(self.conv1_1(X))
        relu1_2 = h
        h = torch.relu(self.conv2_1(nn.functional.max_pool2d(h, 2)))
        return [relu1_2, h]

class StyleLoader:
    def __init__(self, cuda=True):
        self.cuda = cuda
        self.styles = [torch.rand(1, 3, 16, 16) * 255 for _ in range(2)]

    def get(self, i):
        style = Variable(self.styles[i % len(self.styles)])
        if self.cuda:
            style = style.to("meta")      # style = style.cuda()
        return style

vgg = Vgg16()
vgg.to("meta")                            # vgg.cuda()
style_loader = StyleLoader(cuda=True)
batch_id = 0
'''
CELL = '''
style_v = style_loader.get(batch_id)
style_v = subtract_imagenet_mean_batch(style_v)
features_style = vgg(style_v)
gram_style = [gram_matrix(y) for y in features_style]
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["mean"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("mean = tensortype(batch.data.size())",
                  "mean = batch.data.new_empty(batch.data.size())")
CLEAN = False
