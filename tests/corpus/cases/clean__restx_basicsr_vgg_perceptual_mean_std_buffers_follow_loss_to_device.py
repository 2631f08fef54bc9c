"""BasicSR PerceptualLoss: VGGFeatureExtractor's ImageNet mean/std are made on the CPU but registered as buffers.

Source: https://github.com/XPixelGroup/BasicSR/blob/master/basicsr/archs/vgg_arch.py
`VGGFeatureExtractor.__init__` builds `torch.Tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)` (and the
std) on the CPU, but through `self.register_buffer('mean', ...)`; SRModel creates the loss with
`self.cri_perceptual = build_loss(train_opt['perceptual_opt']).to(self.device)`, so the buffers follow
to the GPU and `x = (x - self.mean) / self.std` runs there. Look-alike of the unregistered-mean bug;
no finding, it runs.
Stand-ins: VGGFeatureExtractor over a 4-layer VGG-like `features` stack (no download), PerceptualLoss's
forward (L1 on each layer's features, no style term), on a fake cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from collections import OrderedDict
import torch
from torch import nn

NAMES = ['conv1_1', 'relu1_1', 'pool1', 'conv2_1', 'relu2_1']

class VGGFeatureExtractor(nn.Module):
    def __init__(self, layer_name_list, use_input_norm=True, range_norm=False, requires_grad=False):
        super(VGGFeatureExtractor, self).__init__()
        self.layer_name_list = layer_name_list
        self.use_input_norm = use_input_norm
        self.range_norm = range_norm
        features = [nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(inplace=True), nn.MaxPool2d(2),
                    nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(inplace=True)]     # vgg19(pretrained=True).features
        modified_net = OrderedDict()
        for k, v in zip(NAMES, features):
            modified_net[k] = nn.MaxPool2d(kernel_size=2, stride=2) if 'pool' in k else v
        self.vgg_net = nn.Sequential(modified_net)
        if not requires_grad:
            self.vgg_net.eval()
            for param in self.parameters():
                param.requires_grad = False
        if self.use_input_norm:
            self.register_buffer('mean', torch.Tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1))
            self.register_buffer('std', torch.Tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1))

    def forward(self, x):
        if self.range_norm:
            x = (x + 1) / 2
        if self.use_input_norm:
            x = (x - self.mean) / self.std
        output = {}
        for key, layer in self.vgg_net._modules.items():
            x = layer(x)
            if key in self.layer_name_list:
                output[key] = x.clone()
        return output

class PerceptualLoss(nn.Module):
    def __init__(self, layer_weights, perceptual_weight=1.0):
        super(PerceptualLoss, self).__init__()
        self.perceptual_weight = perceptual_weight
        self.layer_weights = layer_weights
        self.vgg = VGGFeatureExtractor(layer_name_list=list(layer_weights.keys()))
        self.criterion = torch.nn.L1Loss()

    def forward(self, x, gt):
        x_features = self.vgg(x)
        gt_features = self.vgg(gt.detach())
        percep_loss = 0
        for k in x_features.keys():
            percep_loss += self.criterion(x_features[k], gt_features[k]) * self.layer_weights[k]
        return percep_loss * self.perceptual_weight, None

device = torch.device('cuda:0')
net_g = nn.Sequential(nn.Conv2d(3, 12, 3, padding=1), nn.PixelShuffle(2)).to(device)
cri_perceptual = PerceptualLoss({'relu1_1': 0.5, 'relu2_1': 1.0}).to(device)    # build_loss(...).to(self.device)
lq = torch.rand(2, 3, 16, 16, device=device)
gt = torch.rand(2, 3, 32, 32, device=device)
'''
CELL = '''
with torch.no_grad():
    output = net_g(lq)
    l_g_percep, l_g_style = cri_perceptual(output, gt)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
