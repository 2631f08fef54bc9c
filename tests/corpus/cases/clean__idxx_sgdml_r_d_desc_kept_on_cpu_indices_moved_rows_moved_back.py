"""Look-alike: sGDML keeps `R_d_desc` on the CPU when it does not fit on the GPU; `_forward` moves the training indices to it and the looked-up rows back to the model's device.

Source: https://github.com/stefanch/sGDML/blob/a6ae5e86f88cbbc4f1538c838f6862c2fa67620f/sgdml/torchtools.py
`GDMLTorchPredict.set_R_d_desc` tries to cache the descriptor Jacobians on the GPU and, on
"out of memory", leaves them on the CPU on purpose ("Failed to cache 'R_d_desc' on GPU"). The
training-index branch of `_forward` then does `train_idxs = train_idxs.to(self.R_d_desc.device)`
and `Jxs = self.R_d_desc[train_idxs, :, :].to(xs.device)` ("'R_d_desc' might be living on the
CPU..."), while `self._xs_train` (a GPU parameter) is indexed directly by the same CPU indices,
which advanced indexing allows. A CPU tensor next to a GPU model, but every op sees one device.
Stand-in: `GDMLTorchPredict` reduced to `set_R_d_desc` and the training-index branch (the
kernel sum is replaced by a small contraction of the same tensors); the GPU running out of
memory is stood in for by a `max_memory` budget check. SIM meta ("meta" plays the GPU).
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

_dtype = torch.float64


class GDMLTorchPredict(nn.Module):
    """Stand-in for sgdml.torchtools.GDMLTorchPredict (training-index evaluation only)."""

    def __init__(self, model, max_memory):
        super().__init__()
        self.n_train, self.dim_d = model['R_desc'].shape[1], model['R_desc'].shape[0]
        self.idx_id_perm = 0
        self.max_memory = max_memory
        self.log_msgs = []

        self.R_d_desc = None
        self._xs_train = nn.Parameter(
            torch.tensor(model['R_desc'], dtype=_dtype).t(), requires_grad=False
        )

    def set_R_d_desc(self, R_d_desc):
        self.R_d_desc = torch.from_numpy(R_d_desc).type(_dtype)

        # Try moving to GPU memory.
        try:
            if self.R_d_desc.numel() * self.R_d_desc.element_size() > self.max_memory:
                raise RuntimeError('CUDA out of memory.')  # stand-in for the GPU running out
            R_d_desc = self.R_d_desc.to(self._xs_train.device)
        except RuntimeError as e:
            if 'out of memory' in str(e):
                self.log_msgs.append('Failed to cache \\'R_d_desc\\' on GPU.')
            else:
                raise e
        else:
            self.R_d_desc = R_d_desc

    def _forward(self, Rs_or_train_idxs, return_E=True):
        train_idxs = Rs_or_train_idxs

        xs_train_n_perms = self._xs_train.numel() // (self.n_train * self.dim_d)
        idx_id_perm = 0 if xs_train_n_perms == 1 else self.idx_id_perm

        xs = self._xs_train.reshape(self.n_train, -1, self.dim_d)[
            train_idxs, idx_id_perm, :
        ]  # ignore permutations

        train_idxs = train_idxs.to(self.R_d_desc.device)  # 'train_idxs' should be on the same device with 'R_d_desc'

        Jxs = self.R_d_desc[train_idxs, :, :].to(
            xs.device
        )  # 'R_d_desc' might be living on the CPU...

        Fs = torch.einsum('nd,ndi->ni', xs, Jxs)
        Es = xs.sum(-1)
        return Es, Fs

    def forward(self, Rs_or_train_idxs, return_E=True):
        return self._forward(Rs_or_train_idxs, return_E=return_E)


rng = np.random.RandomState(0)
n_train, n_atoms = 8, 5
dim_d = n_atoms * (n_atoms - 1) // 2
model = {'R_desc': rng.rand(dim_d, n_train)}
R_d_desc = rng.rand(n_train, dim_d, 3 * n_atoms)

torch_device = 'meta'   # 'cuda'
torch_predict = GDMLTorchPredict(model, max_memory=1024)
torch_predict.to(torch_device)
torch_predict.set_R_d_desc(R_d_desc)     # too large for the budget: stays on the CPU
'''
CELL = '''
train_idxs = torch.arange(n_train)
E_train, F_train = torch_predict(train_idxs)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
