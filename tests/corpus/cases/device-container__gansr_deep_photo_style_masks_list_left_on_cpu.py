"""PyTorch-deep-photo-styletransfer: the segmentation masks (lists of tensors) stay on the CPU while the images are on the GPU.

Source: https://github.com/yagudin/PyTorch-deep-photo-styletransfer/issues/2
Building the style model fails in `AugmentedStyleLoss.__init__` at
`gram_matrix(target_feature * mask).detach() for mask in target_masks` with "expected type
torch.cuda.FloatTensor but got torch.FloatTensor": `style_img`/`content_img` were sent to the device,
but `style_masks` and `content_masks` (lists of per-segment masks) were not; the code even carries the
commented-out `#target_masks = target_masks.to(device)`. The user asked how to put the masks on the
device, i.e. move every mask of both lists. The VGG19 is a small stand-in; the "GPU" is meta.
"""

SIM = "meta"
FAMILY = "device-container"
SETUP = '''
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

class Normalization(nn.Module):
    def __init__(self, mean, std):
        super(Normalization, self).__init__()
        self.mean = torch.tensor(mean).view(-1, 1, 1)
        self.std = torch.tensor(std).view(-1, 1, 1)

    def forward(self, img):
        return (img - self.mean) / self.std

class ContentLoss(nn.Module):
    def __init__(self, target):
        super(ContentLoss, self).__init__()
        self.target = target.detach()

    def forward(self, input):
        self.loss = F.mse_loss(input, self.target)
        return input

def gram_matrix(input):
    B, C, H, W = input.size()
    features = input.view(B * C, H * W)
    gram = torch.mm(features, features.t())
    return gram.div(B * C * H * W)

class StyleLoss(nn.Module):
    def __init__(self, target_feature):
        super(StyleLoss, self).__init__()
        self.target = gram_matrix(target_feature).detach()

    def forward(self, input):
        gram = gram_matrix(input)
        self.loss = F.mse_loss(gram, self.target)
        return input

class AugmentedStyleLoss(nn.Module):
    def __init__(self, target_feature, target_masks, input_masks):
        super(AugmentedStyleLoss, self).__init__()
        self.input_masks = [mask.detach() for mask in input_masks]
        self.targets = [
            gram_matrix(target_feature * mask).detach() for mask in target_masks
        ]

    def forward(self, input):
        gram_matrices = [
            gram_matrix(input * mask.detach()) for mask in self.input_masks
        ]
        self.loss = sum(
            F.mse_loss(gram, target)
            for gram, target in zip(gram_matrices, self.targets)
        )
        return input

def get_style_model_and_losses(cnn, normalization_mean, normalization_std, style_layers, content_layers,
                               style_img, content_img, style_masks, content_masks, device):
    cnn = copy.deepcopy(cnn)
    normalization = Normalization(normalization_mean, normalization_std).to(device)
    content_losses = []
    style_losses = []
    model = nn.Sequential(normalization)
    num_pool, num_conv = 0, 0
    for layer in cnn.children():
        if isinstance(layer, nn.Conv2d):
            num_conv += 1
            name = "conv{}_{}".format(num_pool, num_conv)
        elif isinstance(layer, nn.ReLU):
            name = "relu{}_{}".format(num_pool, num_conv)
            layer = nn.ReLU(inplace=False)
        elif isinstance(layer, nn.MaxPool2d):
            num_pool += 1
            num_conv = 0
            name = "pool_{}".format(num_pool)
            layer = nn.AvgPool2d(kernel_size=layer.kernel_size, stride=layer.stride, padding=layer.padding)
            style_masks = [layer(mask) for mask in style_masks]
            content_masks = [layer(mask) for mask in content_masks]
        else:
            raise RuntimeError("Unrecognized layer: {}".format(layer.__class__.__name__))
        model.add_module(name, layer)
        if name in content_layers:
            target = model(content_img).detach()
            content_loss = ContentLoss(target)
            model.add_module("content_loss_{}".format(num_pool), content_loss)
            content_losses.append(content_loss)
        if name in style_layers:
            target_feature = model(style_img).detach()
            style_loss = AugmentedStyleLoss(target_feature, style_masks, content_masks)
            model.add_module("style_loss_{}".format(num_pool), style_loss)
            style_losses.append(style_loss)
    for i in range(len(model) - 1, -1, -1):
        if isinstance(model[i], (ContentLoss, StyleLoss, AugmentedStyleLoss)):
            break
    model = model[: (i + 1)]
    return model, style_losses, content_losses

device = torch.device("meta")        # torch.device("cuda" if torch.cuda.is_available() else "cpu")
cnn = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(inplace=True), nn.MaxPool2d(2, 2),
                    nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(inplace=True)).to(device).eval()
cnn_normalization_mean = torch.tensor([0.485, 0.456, 0.406]).to(device)
cnn_normalization_std = torch.tensor([0.229, 0.224, 0.225]).to(device)
content_layers_default = ["conv1_1"]
style_layers_default = ["conv0_1", "conv1_1"]

style_img = torch.rand(1, 3, 16, 16).to(device)
content_img = torch.rand(1, 3, 16, 16).to(device)
# one mask per segmentation colour, built from the segmentation images (kept on the CPU)
style_masks = [(torch.rand(1, 1, 16, 16) > 0.5).float() for _ in range(2)]
content_masks = [(torch.rand(1, 1, 16, 16) > 0.5).float() for _ in range(2)]
'''
CELL = '''
model, style_losses, content_losses = get_style_model_and_losses(
    cnn, cnn_normalization_mean, cnn_normalization_std, style_layers_default, content_layers_default,
    style_img, content_img, style_masks, content_masks, device)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["style_masks"]
FIX = "namespace"
REFERENCE_FIX = '''
style_masks = [mask.to(device) for mask in style_masks]
content_masks = [mask.to(device) for mask in content_masks]
'''
REFERENCE_EDIT = None
CLEAN = False
