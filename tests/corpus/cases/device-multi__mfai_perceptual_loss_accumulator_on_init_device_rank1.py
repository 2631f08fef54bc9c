"""mfai PerceptualLoss under multi-GPU Lightning: the loss accumulator is made on the device given at construction.

Source: https://github.com/meteofrance/mfai/pull/114
"the device is assigned during initialization, but instantiation happens on the CPU when using
PyTorch Lightning. Moreover, in a multi-GPU setup, it's not possible to know at instantiation time
which device the data will be placed on." `PerceptualLoss.__init__` stores `self.device = device`
("cuda", i.e. cuda:0) and `forward` starts with `perceptual_loss = torch.tensor(0.0).to(self.device)`;
Lightning moves the VGG blocks with the model to the rank's GPU (cuda:1 here), so
`perceptual_loss += ...` mixes cuda:0 and cuda:1. The PR places the loss on the predictions' device.
Stand-ins: a tiny VGG feature stack, the Lightning module reduced to an nn.Module moved to cuda:1,
and the [0, 1] range checks (data-dependent, not simulable) left out.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn, Tensor

class PerceptualLoss(torch.nn.Module):
    def __init__(self, device: str = "cuda:0", in_channels: int = 3, feature_block_ids=(0, 1),
                 style_block_ids=(), alpha_feature: float = 1.0, alpha_style: float = 0.0):
        super().__init__()
        self.device = device                    # "cuda" on the reporter's machine: the first GPU
        self.in_channels = in_channels
        self.feature_block_ids, self.style_block_ids = feature_block_ids, style_block_ids
        self.alpha_feature, self.alpha_style = alpha_feature, alpha_style
        self.scaling_factor = [0]
        self._set_network()

    def _set_network(self):
        self.network = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
                                     nn.Conv2d(8, 8, 3, padding=1), nn.ReLU()).to(self.device)
        blocks = [self.network[:2].eval(), self.network[2:].eval()]
        for bl in blocks:
            for p in bl.parameters():
                p.requires_grad = False
        self.blocks = torch.nn.ModuleList(blocks)

    def _forward_net_single_img(self, x: Tensor):
        features, styles = [], []
        for i, block in enumerate(self.blocks):
            x = block(x)
            if i in self.feature_block_ids:
                features.append(x)
        return features, styles

    def _perceptual_loss_given_input_and_target(self, x: Tensor, y: Tensor) -> Tensor:
        features_x, _ = self._forward_net_single_img(x)
        features_y, _ = self._forward_net_single_img(y)
        loss = 0.0
        for i, _ in enumerate(self.blocks):
            if i in self.feature_block_ids:
                loss = loss + self.alpha_feature * torch.nn.functional.l1_loss(features_x[i], features_y[i])
        return loss

    def forward(self, x: Tensor, y: Tensor) -> Tensor:
        perceptual_loss = torch.tensor(0.0).to(self.device)
        for scaling_factor in self.scaling_factor:
            perceptual_loss += self._perceptual_loss_given_input_and_target(x=x, y=y)
        return perceptual_loss

class NowcastingModel(nn.Module):                  # the LightningModule, reduced
    def __init__(self):
        super().__init__()
        self.net = nn.Conv2d(3, 3, 3, padding=1)
        self.perceptual_loss = PerceptualLoss(device="cuda:0")

    def training_step(self, batch):
        x, y = batch
        y_hat = torch.sigmoid(self.net(x))
        return self.perceptual_loss(y_hat, y)

model = NowcastingModel()
model.to("cuda:1")                                  # DDP rank 1: Lightning moves the module to its GPU
batch = (torch.rand(2, 3, 16, 16).to("cuda:1"), torch.rand(2, 3, 16, 16).to("cuda:1"))
'''
CELL = '''
loss = model.training_step(batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.perceptual_loss"]
FIX = "namespace"
REFERENCE_FIX = '''
model.perceptual_loss.device = "cuda:1"
'''
REFERENCE_EDIT = None
CLEAN = False
