"""Look-alike: nnU-Net's DC_and_CE_loss takes the float segmentation target from the batch; its RobustCrossEntropyLoss and dice one-hot cast it to long themselves.

Source: https://github.com/MIC-DKFZ/nnUNet/issues/2029
"Convert labels from float64 to Int": a user asked whether the float label maps must be converted
before training; the answer was that nnU-Net uses its own data format internally. In the training
step the segmentation arrives as a floating tensor (batchgenerators' spatial transforms return float
segs) and goes straight into `DC_and_CE_loss`: `RobustCrossEntropyLoss.forward` drops the channel and
calls `super().forward(input, target.long())`, and the dice term scatters with `y.long()`. A float
target next to `CrossEntropyLoss` on purpose, and it runs. Stand-ins: the nnU-Net v2 losses reduced
to the no-ignore-label path, a two-conv network, one batch from the data loader.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
from torch import Tensor

def softmax_helper_dim1(x: Tensor) -> Tensor:
    return torch.softmax(x, 1)

class RobustCrossEntropyLoss(nn.CrossEntropyLoss):
    """this is just a compatibility layer because my target tensor is float and has an extra dimension"""
    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        if target.ndim == input.ndim:
            assert target.shape[1] == 1
            target = target[:, 0]
        return super().forward(input, target.long())

class MemoryEfficientSoftDiceLoss(nn.Module):
    def __init__(self, apply_nonlin=None, batch_dice=False, do_bg=True, smooth=1.0, ddp=True):
        super().__init__()
        self.do_bg, self.batch_dice, self.apply_nonlin, self.smooth = do_bg, batch_dice, apply_nonlin, smooth

    def forward(self, x, y, loss_mask=None):
        if self.apply_nonlin is not None:
            x = self.apply_nonlin(x)
        axes = tuple(range(2, x.ndim))
        with torch.no_grad():
            if x.ndim != y.ndim:
                y = y.view((y.shape[0], 1, *y.shape[1:]))
            if x.shape == y.shape:
                y_onehot = y
            else:
                y_onehot = torch.zeros(x.shape, device=x.device, dtype=torch.bool)
                y_onehot.scatter_(1, y.long(), 1)
            if not self.do_bg:
                y_onehot = y_onehot[:, 1:]
            sum_gt = y_onehot.sum(axes)
        if not self.do_bg:
            x = x[:, 1:]
        intersect = (x * y_onehot).sum(axes)
        sum_pred = x.sum(axes)
        if self.batch_dice:
            intersect, sum_pred, sum_gt = intersect.sum(0), sum_pred.sum(0), sum_gt.sum(0)
        dc = (2 * intersect + self.smooth) / (torch.clip(sum_gt + sum_pred + self.smooth, 1e-8))
        return -dc.mean()

class DC_and_CE_loss(nn.Module):
    def __init__(self, soft_dice_kwargs, ce_kwargs, weight_ce=1, weight_dice=1, ignore_label=None,
                 dice_class=MemoryEfficientSoftDiceLoss):
        super().__init__()
        self.weight_dice, self.weight_ce = weight_dice, weight_ce
        self.ce = RobustCrossEntropyLoss(**ce_kwargs)
        self.dc = dice_class(apply_nonlin=softmax_helper_dim1, **soft_dice_kwargs)

    def forward(self, net_output: Tensor, target: Tensor):
        dc_loss = self.dc(net_output, target, loss_mask=None) if self.weight_dice != 0 else 0
        ce_loss = self.ce(net_output, target[:, 0]) if self.weight_ce != 0 else 0
        return self.weight_ce * ce_loss + self.weight_dice * dc_loss

device = torch.device("cpu")
network = nn.Sequential(nn.Conv3d(1, 8, 3, padding=1), nn.LeakyReLU(), nn.Conv3d(8, 3, 1)).to(device)
loss = DC_and_CE_loss({"batch_dice": True, "smooth": 1e-5, "do_bg": False, "ddp": False}, {},
                      weight_ce=1, weight_dice=1, ignore_label=None, dice_class=MemoryEfficientSoftDiceLoss)
optimizer = torch.optim.SGD(network.parameters(), 1e-2, weight_decay=3e-5, momentum=0.99, nesterov=True)
# a batch from the data loader: float image, float segmentation (class ids 0..2) with a channel axis
batch = {"data": torch.randn(2, 1, 16, 16, 16),
         "target": torch.randint(0, 3, (2, 1, 16, 16, 16)).float(),
         "keys": ["case_000", "case_001"]}
'''
CELL = '''
data = batch["data"]
target = batch["target"]
data = data.to(device, non_blocking=True)
target = target.to(device, non_blocking=True)
optimizer.zero_grad(set_to_none=True)
output = network(data)
l = loss(output, target)
l.backward()
torch.nn.utils.clip_grad_norm_(network.parameters(), 12)
optimizer.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
