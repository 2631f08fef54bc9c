"""Look-alike: the PyTorch neural-style tutorial keeps ImageNet mean/std as plain tensor attributes, built from tensors already on the GPU.

Source: https://github.com/pytorch/tutorials/pull/467
The tutorial's `Normalization` module stores `self.mean`/`self.std` as plain attributes (not buffers),
the same shape of code that breaks SRGAN-style VGG losses after `.cuda()`. Here it is harmless: the
tutorial passes `cnn_normalization_mean = torch.tensor([...]).to(device)`, so the copies are made on the
device (PR 467 was about the copy-construct warning of `torch.tensor(mean)`; maintainers closed it as
the tutorial runs without errors; this uses `.clone().detach()`, as that warning suggests). One forward
pass of the style/content model; VGG19 is a small stand-in.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

device = torch.device("cuda:0")

class ContentLoss(nn.Module):
    def __init__(self, target,):
        super(ContentLoss, self).__init__()
        self.target = target.detach()
    def forward(self, input):
        self.loss = F.mse_loss(input, self.target)
        return input

def gram_matrix(input):
    a, b, c, d = input.size()
    features = input.view(a * b, c * d)
    G = torch.mm(features, features.t())
    return G.div(a * b * c * d)

class StyleLoss(nn.Module):
    def __init__(self, target_feature):
        super(StyleLoss, self).__init__()
        self.target = gram_matrix(target_feature).detach()
    def forward(self, input):
        G = gram_matrix(input)
        self.loss = F.mse_loss(G, self.target)
        return input

cnn_normalization_mean = torch.tensor([0.485, 0.456, 0.406]).to(device)
cnn_normalization_std = torch.tensor([0.229, 0.224, 0.225]).to(device)

class Normalization(nn.Module):
    def __init__(self, mean, std):
        super(Normalization, self).__init__()
        self.mean = mean.clone().detach().view(-1, 1, 1)
        self.std = std.clone().detach().view(-1, 1, 1)
    def forward(self, img):
        return (img - self.mean) / self.std

content_layers_default = ['conv_2']
style_layers_default = ['conv_1', 'conv_2']

def get_style_model_and_losses(cnn, normalization_mean, normalization_std, style_img, content_img,
                               content_layers=content_layers_default, style_layers=style_layers_default):
    normalization = Normalization(normalization_mean, normalization_std)
    content_losses = []
    style_losses = []
    model = nn.Sequential(normalization)
    i = 0
    for layer in cnn.children():
        if isinstance(layer, nn.Conv2d):
            i += 1
            name = 'conv_{}'.format(i)
        elif isinstance(layer, nn.ReLU):
            name = 'relu_{}'.format(i)
            layer = nn.ReLU(inplace=False)
        elif isinstance(layer, nn.MaxPool2d):
            name = 'pool_{}'.format(i)
        else:
            raise RuntimeError('Unrecognized layer: {}'.format(layer.__class__.__name__))
        model.add_module(name, layer)
        if name in content_layers:
            target = model(content_img).detach()
            content_loss = ContentLoss(target)
            model.add_module("content_loss_{}".format(i), content_loss)
            content_losses.append(content_loss)
        if name in style_layers:
            target_feature = model(style_img).detach()
            style_loss = StyleLoss(target_feature)
            model.add_module("style_loss_{}".format(i), style_loss)
            style_losses.append(style_loss)
    return model, style_losses, content_losses

cnn = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(inplace=True), nn.MaxPool2d(2, 2),
                    nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(inplace=True)).to(device).eval()
style_img = torch.rand(1, 3, 16, 16).to(device)
content_img = torch.rand(1, 3, 16, 16).to(device)
input_img = content_img.clone()
'''
CELL = '''
model, style_losses, content_losses = get_style_model_and_losses(
    cnn, cnn_normalization_mean, cnn_normalization_std, style_img, content_img)
model(input_img)
style_score = sum(sl.loss for sl in style_losses) * 1000000
content_score = sum(cl.loss for cl in content_losses)
loss = style_score + content_score
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
