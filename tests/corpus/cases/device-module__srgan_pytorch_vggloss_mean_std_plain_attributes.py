"""SRGAN-PyTorch: the VGG content loss keeps its ImageNet mean/std as plain tensors; `.cuda()` skips them.

Source: https://github.com/Lornatang/SRGAN-PyTorch/issues/22
`VGGLoss.__init__` sets `self.mean = torch.Tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)` and
`self.std` as plain attributes; train.py builds `content_criterion = VGGLoss().cuda(args.gpu)`, which
moves the VGG features but not the two tensors, so `(source - self.mean) / self.std` in `forward`
raised "Expected all tensors to be on the same device, cuda:0 and cpu" during the GAN epochs.
The VGG19 backbone is a small stand-in (no pretrained weights).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class VGGLoss(torch.nn.Module):
    def __init__(self, feature_layer: int = 4) -> None:
        super(VGGLoss, self).__init__()
        features = [nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(inplace=True),
                    nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(inplace=True)]
        self.features = torch.nn.Sequential(*features[:feature_layer]).eval()
        for name, param in self.features.named_parameters():
            param.requires_grad = False
        # Normalize the input image. Caution: input tensor range [0, 1].
        self.mean = torch.Tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)
        self.std = torch.Tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1)

    def forward(self, source: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
        source = (source + 1) / 2
        target = (target + 1) / 2
        source = (source - self.mean) / self.std
        target = (target - self.mean) / self.std
        vgg_loss = torch.nn.functional.l1_loss(self.features(source), self.features(target))
        return vgg_loss

class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.PReLU(),
                                  nn.Upsample(scale_factor=2), nn.Conv2d(16, 3, 3, padding=1), nn.Tanh())

    def forward(self, x):
        return self.body(x)

gpu = 0
device = torch.device(f"cuda:{gpu}")   # train.py: .cuda(args.gpu) (the simulator refuses .cuda())
generator = Generator().to(device)
pixel_criterion = nn.MSELoss().to(device)
content_criterion = VGGLoss().to(device)
lr = torch.rand(2, 3, 8, 8).to(device, non_blocking=True)
hr = torch.rand(2, 3, 16, 16).to(device, non_blocking=True)
'''
CELL = '''
sr = generator(lr)
pixel_loss = pixel_criterion(sr, hr.detach())
content_loss = content_criterion(sr, hr.detach())
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["content_criterion.mean"]
FIX = "namespace"
REFERENCE_FIX = '''
content_criterion.mean = content_criterion.mean.to(device)
content_criterion.std = content_criterion.std.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
