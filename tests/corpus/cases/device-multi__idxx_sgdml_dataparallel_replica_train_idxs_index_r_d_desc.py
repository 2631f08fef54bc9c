"""sGDML on several GPUs: a DataParallel replica indexes `R_d_desc`, a plain attribute left on the first GPU, with its own GPU's `train_idxs`.

Source: https://github.com/stefanch/sGDML/pull/28
"Bug fix for multiple GPU": with more than one GPU, `GDMLPredict` wraps `GDMLTorchPredict` in
`torch.nn.DataParallel`; when the training indices are evaluated, each replica receives its chunk
of `train_idxs` on its own GPU, but `R_d_desc` (the descriptor Jacobians, set by
`set_R_d_desc` as a plain tensor attribute, so `replicate` does not copy it) stays on the first
GPU, and `self.R_d_desc[train_idxs, :, :]` fails: "indices should be either on cpu or on the same
device as the indexed tensor". The PR adds, in `GDMLTorchPredict._forward`,
`train_idxs = train_idxs.to(self.R_d_desc.device)` before the lookup.
Stand-in: `GDMLTorchPredict` reduced to the training-index branch of `_forward` (the kernel sum
is replaced by a small contraction of the same tensors) and `set_R_d_desc`; `torch.nn.DataParallel`
reduced to scatter / replicate (parameters and buffers copied to each GPU, plain attributes shared,
as `torch.nn.parallel.replicate` does) / gather. The `[...]` lookups are written `index_select`
(the simulator cannot index fake GPU tensors with `[]`), so the simulated error is the same-device one.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import numpy as np
import torch
from torch import nn

_dtype = torch.float64


class GDMLTorchPredict(nn.Module):
    """Stand-in for sgdml.torchtools.GDMLTorchPredict (training-index evaluation only)."""

    def __init__(self, model):
        super().__init__()
        self.n_train, self.dim_d = model['R_desc'].shape[1], model['R_desc'].shape[0]
        self.dim_i = model['dim_i']
        self.idx_id_perm = 0

        self.R_d_desc = None
        self._xs_train = nn.Parameter(
            torch.tensor(model['R_desc'], dtype=_dtype).t(), requires_grad=False
        )

    def set_R_d_desc(self, R_d_desc):
        self.R_d_desc = torch.from_numpy(R_d_desc).type(_dtype)
        # Try moving to GPU memory.
        R_d_desc = self.R_d_desc.to(self._xs_train.device)
        self.R_d_desc = R_d_desc

    def _forward(self, Rs_or_train_idxs, return_E=True):
        train_idxs = Rs_or_train_idxs

        xs_train_n_perms = self._xs_train.numel() // (self.n_train * self.dim_d)
        idx_id_perm = 0 if xs_train_n_perms == 1 else self.idx_id_perm

        xs = self._xs_train.reshape(self.n_train, -1, self.dim_d).index_select(
            0, train_idxs
        ).select(1, idx_id_perm)  # ignore permutations

        Jxs = self.R_d_desc.index_select(0, train_idxs).to(
            xs.device
        )  # 'R_d_desc' might be living on the CPU...

        Fs = torch.einsum('nd,ndi->ni', xs, Jxs)
        Es = xs.sum(-1)
        return Es, Fs

    def forward(self, Rs_or_train_idxs, return_E=True):
        return self._forward(Rs_or_train_idxs, return_E=return_E)


class DataParallel(nn.Module):
    """Stand-in for torch.nn.DataParallel: scatter, replicate, parallel_apply, gather."""

    def __init__(self, module, device_ids):
        super().__init__()
        self.module = module
        self.device_ids = device_ids

    def _replicate(self, device):
        replica = self.module.__new__(type(self.module))
        replica.__dict__ = self.module.__dict__.copy()
        replica._parameters = {k: v.to(device) for k, v in self.module._parameters.items()}
        replica._buffers = {k: v.to(device) for k, v in self.module._buffers.items()}
        return replica

    def forward(self, inputs, **kwargs):
        chunks = inputs.chunk(len(self.device_ids))
        outputs = [self._replicate(d)(c.to(d), **kwargs) for d, c in zip(self.device_ids, chunks)]
        return tuple(
            torch.cat([out[i].to(self.device_ids[0]) for out in outputs])
            for i in range(len(outputs[0]))
        )


rng = np.random.RandomState(0)
n_train, n_atoms = 8, 5
dim_d = n_atoms * (n_atoms - 1) // 2
dim_i = 3 * n_atoms
model = {
    'R_desc': rng.rand(dim_d, n_train),
    'dim_i': dim_i,
}
R_d_desc = rng.rand(n_train, dim_d, dim_i)

torch_predict = GDMLTorchPredict(model)
torch_predict = DataParallel(torch_predict, device_ids=["cuda:0", "cuda:1"])   # n_gpu > 1
torch_predict.to("cuda:0")
torch_predict.module.set_R_d_desc(R_d_desc)
'''
CELL = '''
train_idxs = torch.arange(n_train)
E_train, F_train = torch_predict(train_idxs)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device",
                "indices should be either on cpu or on the same device")
CULPRITS = ["torch_predict"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        Jxs = self.R_d_desc.index_select(0, train_idxs).to(",
    "        train_idxs = train_idxs.to(self.R_d_desc.device)  # 'train_idxs' should be on the same device with 'R_d_desc'\n"
    "        Jxs = self.R_d_desc.index_select(0, train_idxs).to(",
)
CLEAN = False
