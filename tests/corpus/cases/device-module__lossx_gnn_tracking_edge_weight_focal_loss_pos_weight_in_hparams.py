"""gnn_tracking `EdgeWeightFocalLoss`: the default `pos_weight` tensor lives in `hparams`, which `.to()` never moves.

Source: https://github.com/gnn-tracking/gnn_tracking/pull/449
"Fix: Tensors on same device for EdgeWeightFocalLoss". When `pos_weight` is not given, the loss's
`__init__` sets `pos_weight = T([1.0])` and then calls Lightning's `save_hyperparameters()`, so the
CPU tensor is stored in `self.hparams` (a plain dict, not a buffer). The loss module follows the
model to the GPU, but `binary_focal_loss(..., pos_weight=self.hparams.pos_weight)` multiplies the
CPU one-element tensor with the cuda edge weights. The merged fix builds the default in `_forward`
with `torch.tensor([1.0], device=w.device)`.
Stand-ins: Lightning's `HyperparametersMixin.save_hyperparameters` (collects the caller's init
locals into `hparams`), the package's `binary_focal_loss` (its NaN asserts dropped) and a tiny edge
classifier; `EdgeWeightFocalLoss` keeps its structure.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import inspect
import torch
from torch import nn
from torch import Tensor as T

class AttributeDict(dict):
    def __getattr__(self, key):
        return self[key]

class HyperparametersMixin:                      # pytorch_lightning.core.mixins (stand-in)
    def save_hyperparameters(self):
        frame = inspect.currentframe().f_back
        init_args = {k: v for k, v in frame.f_locals.items()
                     if k not in ("self", "__class__", "kwargs")}
        init_args.update(frame.f_locals.get("kwargs", {}))
        if not hasattr(self, "_hparams"):
            self._hparams = AttributeDict()
        self._hparams.update(init_args)

    @property
    def hparams(self):
        return self._hparams

def _binary_focal_loss(*, inpt, target, alpha, gamma, pos_weight):
    probs_pos = inpt
    probs_neg = 1 - inpt
    pos_term = -alpha * pos_weight * probs_neg.pow(gamma) * target * probs_pos.log()
    neg_term = -(1.0 - alpha) * probs_pos.pow(gamma) * (1.0 - target) * probs_neg.log()
    return torch.mean(pos_term + neg_term)

def binary_focal_loss(*, inpt, target, alpha=0.25, gamma=2.0, pos_weight=T([1])):
    assert gamma >= 0.0
    assert 0 <= alpha <= 1
    assert pos_weight is not None
    return _binary_focal_loss(inpt=inpt, target=target, alpha=alpha, gamma=gamma, pos_weight=pos_weight)

class FalsifyLowPtEdgeWeightLoss(nn.Module, HyperparametersMixin):
    def __init__(self, *, pt_thld: float = 0.0):
        super().__init__()
        self.save_hyperparameters()

    def forward(self, *, w, y, edge_index=None, pt=None, **kwargs):
        return self._forward(y=y.float(), w=w)

class EdgeWeightFocalLoss(FalsifyLowPtEdgeWeightLoss):
    def __init__(self, *, alpha=0.25, gamma=2.0, pos_weight=None, **kwargs):
        super().__init__(**kwargs)
        if pos_weight is None:
            pos_weight = T([1.0])
        self.save_hyperparameters()

    def _forward(self, *, w, y, **kwargs):
        return binary_focal_loss(
            inpt=w,
            target=y,
            alpha=self.hparams.alpha,
            gamma=self.hparams.gamma,
            pos_weight=self.hparams.pos_weight,
        )

class EdgeClassifier(nn.Module):
    def __init__(self, node_dim=6, hidden=16):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(2 * node_dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, edge_features):
        return torch.sigmoid(self.mlp(edge_features)).squeeze(-1)

device = torch.device("cuda:0")
model = EdgeClassifier().to(device)
loss_fn = EdgeWeightFocalLoss(alpha=0.3, gamma=2.0).to(device)
edge_features = torch.randn(64, 12, device=device)
y = torch.randint(0, 2, (64,), device=device)
'''
CELL = '''
w = model(edge_features)
loss = loss_fn(w=w, y=y)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["loss_fn"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        if pos_weight is None:
            pos_weight = T([1.0])
        self.save_hyperparameters()

    def _forward(self, *, w, y, **kwargs):
        return binary_focal_loss(
            inpt=w,
            target=y,
            alpha=self.hparams.alpha,
            gamma=self.hparams.gamma,
            pos_weight=self.hparams.pos_weight,
        )""", """        self.save_hyperparameters()

    def _forward(self, *, w, y, **kwargs):
        pos_weight = self.hparams.pos_weight
        if pos_weight is None:
            pos_weight = torch.tensor([1.0], device=w.device)
        return binary_focal_loss(
            inpt=w,
            target=y,
            alpha=self.hparams.alpha,
            gamma=self.hparams.gamma,
            pos_weight=pos_weight,
        )""")
CLEAN = False
