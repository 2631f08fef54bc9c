"""MONAI `DiceLoss(to_onehot_y=True, softmax=True)`: the one-hot target is allocated inside the loss on the labels' device.

Source: https://github.com/Project-MONAI/MONAI/blob/dev/monai/networks/utils.py
`DiceLoss.forward` converts the integer label map with `monai.networks.utils.one_hot(target,
num_classes=n_pred_ch)`, which allocates `o = torch.zeros(size=sh, dtype=dtype,
device=labels.device)` and scatters ones into it; the smoothing terms `smooth_nr/smooth_dr` are
Python floats. A loss that creates a fresh tensor per call and holds no state, used with a UNet and
labels on cuda:0. Look-alike: a tensor built inside the loss, on the right device; it runs.
Stand-ins: MONAI's `one_hot` and `DiceLoss.forward` (reduce axes as a Python list, as the
library's `torch.arange(2, ndim).tolist()` gives) and a two-layer 3D segmentation net.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def one_hot(labels, num_classes, dtype=torch.float, dim=1):
    if labels.ndim < dim + 1:
        shape = list(labels.shape) + [1] * (dim + 1 - len(labels.shape))
        labels = torch.reshape(labels, shape)
    sh = list(labels.shape)
    if sh[dim] != 1:
        raise AssertionError("labels should have a channel with length equal to one.")
    sh[dim] = num_classes
    o = torch.zeros(size=sh, dtype=dtype, device=labels.device)
    labels = o.scatter_(dim=dim, index=labels.long(), value=1)
    return labels

class DiceLoss(nn.Module):
    def __init__(self, to_onehot_y=False, softmax=False, smooth_nr=1e-5, smooth_dr=1e-5, batch=False,
                 reduction="mean"):
        super().__init__()
        self.to_onehot_y, self.softmax = to_onehot_y, softmax
        self.smooth_nr, self.smooth_dr = float(smooth_nr), float(smooth_dr)
        self.batch, self.reduction = batch, reduction

    def forward(self, input, target):
        n_pred_ch = input.shape[1]
        if self.softmax:
            input = torch.softmax(input, 1)
        if self.to_onehot_y:
            target = one_hot(target, num_classes=n_pred_ch)
        reduce_axis = list(range(2, len(input.shape)))
        if self.batch:
            reduce_axis = [0] + reduce_axis
        intersection = torch.sum(target * input, dim=reduce_axis)
        ground_o = torch.sum(target, dim=reduce_axis)
        pred_o = torch.sum(input, dim=reduce_axis)
        denominator = ground_o + pred_o
        f = 1.0 - (2.0 * intersection + self.smooth_nr) / (denominator + self.smooth_dr)
        if self.reduction == "mean":
            f = torch.mean(f)
        return f

device = torch.device("cuda:0")
model = nn.Sequential(nn.Conv3d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv3d(8, 3, 1)).to(device)
loss_function = DiceLoss(to_onehot_y=True, softmax=True)
inputs = torch.randn(2, 1, 16, 16, 16, device=device)
labels = torch.randint(0, 3, (2, 1, 16, 16, 16), device=device)
'''
CELL = '''
outputs = model(inputs)
loss = loss_function(outputs, labels)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
