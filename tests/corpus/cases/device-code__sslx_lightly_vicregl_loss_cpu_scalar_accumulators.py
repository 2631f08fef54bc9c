"""lightly VICRegLLoss on one GPU: the global-loss accumulators are made with `torch.tensor(0.0)` on the CPU.

Source: https://github.com/lightly-ai/lightly/pull/1850
In a single-GPU run, `VICRegLLoss` raised "Expected all tensors to be on the same device, but found at
least two devices, cuda:0 and cpu!". Since the type-checking rework (#1764) the loss starts its sums as
`loss = torch.tensor(0.0)`, `loss_count = torch.tensor(0)` (and `var_loss`/`cov_loss` likewise), all
on the CPU, then adds the GPU invariance/variance/covariance terms into them in place. The merged fix
(maintainer's suggestion) creates these tensors on `global_view_features[0][0].device`; the reference
edit writes them as `global_view_features[0][0].new_zeros(...)`, the form lightly settled on in #1858
(the simulated GPU cannot copy a Python number into `torch.tensor(..., device=...)`).
Stand-in: lightly's `VICRegLLoss` global branch (`_global_loss`, `_global_invariance_loss`,
`_global_variance_and_covariance_loss`) and the VICReg term functions; the nearest-neighbour local loss is
left out (the forward returns the global term) and `covariance_loss` sums the off-diagonal as the total minus
the diagonal instead of indexing with an eye mask (the simulated GPU can do neither); small linear backbone/heads
replace the ResNet VICRegL model; the GPU is simulated.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
from typing import Optional, Sequence, Tuple
import torch
import torch.nn.functional as F
from torch import Tensor, nn
from torch.nn import Module

def invariance_loss(x, y):
    return F.mse_loss(x, y)

def variance_loss(x, eps=0.0001):
    std = torch.sqrt(x.var(dim=0) + eps)
    return torch.mean(F.relu(1.0 - std))

def covariance_loss(x):
    x = x - x.mean(dim=0)
    batch_size = x.size(0)
    dim = x.size(-1)
    cov = torch.einsum("b...c,b...d->...cd", x, x) / (batch_size - 1)
    # lightly: cov[..., ~torch.eye(dim, device=x.device, dtype=torch.bool)].pow(2).sum(-1) / dim
    off_diag = cov.pow(2).sum((-2, -1)) - torch.diagonal(cov, dim1=-2, dim2=-1).pow(2).sum(-1)
    return (off_diag / dim).mean()

class VICRegLLoss(Module):
    def __init__(self, lambda_param=25.0, mu_param=25.0, nu_param=1.0, alpha=0.75,
                 gather_distributed=False, eps=0.0001, num_matches=(20, 4)):
        super().__init__()
        self.alpha = alpha
        self.num_matches = num_matches
        self.lambda_param = lambda_param
        self.mu_param = mu_param
        self.nu_param = nu_param
        self.eps = eps
        self.gather_distributed = gather_distributed

    def forward(self, global_view_features, global_view_grids, local_view_features=None, local_view_grids=None):
        global_loss = self._global_loss(
            global_view_features=global_view_features,
            local_view_features=local_view_features,
        )
        return global_loss                     # alpha * global_loss + (1 - alpha) * local_loss in lightly

    def _global_loss(self, global_view_features, local_view_features=None):
        inv_loss = self._global_invariance_loss(
            global_view_features=global_view_features,
            local_view_features=local_view_features,
        )
        var_loss, cov_loss = self._global_variance_and_covariance_loss(
            global_view_features=global_view_features,
            local_view_features=local_view_features,
        )
        return self.lambda_param * inv_loss + self.mu_param * var_loss + self.nu_param * cov_loss

    def _global_invariance_loss(self, global_view_features, local_view_features=None):
        loss = torch.tensor(0.0)
        loss_count = torch.tensor(0)

        # Compute invariance loss between global views
        for global_features_a, _ in global_view_features:
            for global_features_b, _ in global_view_features:
                if global_features_a is not global_features_b:
                    loss += invariance_loss(global_features_a, global_features_b)
                    loss_count += 1

            # Compute invariance loss between global and local views
            if local_view_features is not None:
                for global_features_b, _ in local_view_features:
                    loss += invariance_loss(global_features_a, global_features_b)
                    loss_count += 1

        return loss / loss_count

    def _global_variance_and_covariance_loss(self, global_view_features, local_view_features=None):
        view_features = list(global_view_features)
        if local_view_features is not None:
            view_features = view_features + list(local_view_features)

        var_loss = torch.tensor(0.0)
        cov_loss = torch.tensor(0.0)
        loss_count = torch.tensor(0)
        for global_features, _ in view_features:
            var_loss += variance_loss(x=global_features, eps=self.eps)
            cov_loss += covariance_loss(x=global_features)
            loss_count += 1
        return var_loss / loss_count, cov_loss / loss_count

class VICRegL(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 64), nn.ReLU())
        self.projection_head = nn.Linear(64, 32)
        self.local_projection_head = nn.Linear(64, 7 * 7 * 16)

    def forward(self, x):
        features = self.backbone(x)
        z = self.projection_head(features)
        z_local = self.local_projection_head(features).view(-1, 7, 7, 16)
        return z, z_local

device = "cuda:0"
model = VICRegL()
model.to(device)
criterion = VICRegLLoss()
views = [torch.rand(8, 3, 32, 32) for _ in range(4)]        # 2 global + 2 local views from VICRegLTransform
grids = [torch.rand(8, 7, 7, 2) for _ in range(4)]
'''
CELL = '''
views = [view.to(device) for view in views]
grids = [grid.to(device) for grid in grids]
features = [model(view) for view in views]
loss = criterion(
    global_view_features=features[:2],
    global_view_grids=grids[:2],
    local_view_features=features[2:],
    local_view_grids=grids[2:],
)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "wrapped to wrong device")
CULPRITS = ["criterion"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """        loss = torch.tensor(0.0)
        loss_count = torch.tensor(0)

        # Compute invariance loss between global views
        for global_features_a, _ in global_view_features:
            for global_features_b, _ in global_view_features:
                if global_features_a is not global_features_b:
                    loss += invariance_loss(global_features_a, global_features_b)
                    loss_count += 1

            # Compute invariance loss between global and local views
            if local_view_features is not None:
                for global_features_b, _ in local_view_features:
                    loss += invariance_loss(global_features_a, global_features_b)
                    loss_count += 1

        return loss / loss_count

    def _global_variance_and_covariance_loss(self, global_view_features, local_view_features=None):
        view_features = list(global_view_features)
        if local_view_features is not None:
            view_features = view_features + list(local_view_features)

        var_loss = torch.tensor(0.0)
        cov_loss = torch.tensor(0.0)
        loss_count = torch.tensor(0)""",
    """        loss = global_view_features[0][0].new_zeros(())
        loss_count = global_view_features[0][0].new_zeros((), dtype=torch.long)

        # Compute invariance loss between global views
        for global_features_a, _ in global_view_features:
            for global_features_b, _ in global_view_features:
                if global_features_a is not global_features_b:
                    loss += invariance_loss(global_features_a, global_features_b)
                    loss_count += 1

            # Compute invariance loss between global and local views
            if local_view_features is not None:
                for global_features_b, _ in local_view_features:
                    loss += invariance_loss(global_features_a, global_features_b)
                    loss_count += 1

        return loss / loss_count

    def _global_variance_and_covariance_loss(self, global_view_features, local_view_features=None):
        view_features = list(global_view_features)
        if local_view_features is not None:
            view_features = view_features + list(local_view_features)

        var_loss = global_view_features[0][0].new_zeros(())
        cov_loss = global_view_features[0][0].new_zeros(())
        loss_count = global_view_features[0][0].new_zeros((), dtype=torch.long)""",
)
CLEAN = False
