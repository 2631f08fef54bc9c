"""PatchTST: RevIN is a submodule of the backbone; its affine weights follow `.to()` and its mean/stdev are computed from the GPU input.

Source: https://github.com/yuqinie98/PatchTST/blob/main/PatchTST_supervised/layers/RevIN.py
`PatchTST_backbone` holds `self.revin_layer = RevIN(c_in, affine=affine, subtract_last=subtract_last)`;
RevIN's `affine_weight`/`affine_bias` are `nn.Parameter`s and its statistics (`self.mean`,
`self.stdev`) are plain attributes recomputed from `x` in `_get_statistics` on every 'norm' call,
so they live wherever the batch lives. Look-alike: plain tensor attributes on a model moved to the
GPU, created from the input each call, which runs. Stand-in: RevIN as in the repo, the backbone
reduced to patching + a linear encoder + the flatten head.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class RevIN(nn.Module):
    def __init__(self, num_features: int, eps=1e-5, affine=True, subtract_last=False):
        super(RevIN, self).__init__()
        self.num_features = num_features
        self.eps = eps
        self.affine = affine
        self.subtract_last = subtract_last
        if self.affine:
            self._init_params()

    def forward(self, x, mode: str):
        if mode == 'norm':
            self._get_statistics(x)
            x = self._normalize(x)
        elif mode == 'denorm':
            x = self._denormalize(x)
        else:
            raise NotImplementedError
        return x

    def _init_params(self):
        self.affine_weight = nn.Parameter(torch.ones(self.num_features))
        self.affine_bias = nn.Parameter(torch.zeros(self.num_features))

    def _get_statistics(self, x):
        dim2reduce = tuple(range(1, x.ndim - 1))
        self.mean = torch.mean(x, dim=dim2reduce, keepdim=True).detach()
        self.stdev = torch.sqrt(torch.var(x, dim=dim2reduce, keepdim=True, unbiased=False) + self.eps).detach()

    def _normalize(self, x):
        x = x - self.mean
        x = x / self.stdev
        if self.affine:
            x = x * self.affine_weight
            x = x + self.affine_bias
        return x

    def _denormalize(self, x):
        if self.affine:
            x = x - self.affine_bias
            x = x / (self.affine_weight + self.eps * self.eps)
        x = x * self.stdev
        x = x + self.mean
        return x

class PatchTST_backbone(nn.Module):
    def __init__(self, c_in, context_window, target_window, patch_len, stride, d_model=16, revin=True):
        super().__init__()
        self.revin = revin
        if self.revin:
            self.revin_layer = RevIN(c_in, affine=True, subtract_last=False)
        self.patch_len, self.stride = patch_len, stride
        patch_num = int((context_window - patch_len) / stride + 1)
        self.W_P = nn.Linear(patch_len, d_model)
        self.head = nn.Linear(d_model * patch_num, target_window)

    def forward(self, z):                                   # z: [bs x nvars x seq_len]
        if self.revin:
            z = z.permute(0, 2, 1)
            z = self.revin_layer(z, 'norm')
            z = z.permute(0, 2, 1)
        z = z.unfold(dimension=-1, size=self.patch_len, step=self.stride)   # [bs x nvars x patch_num x patch_len]
        z = torch.relu(self.W_P(z))
        z = self.head(torch.flatten(z, start_dim=-2))       # [bs x nvars x target_window]
        if self.revin:
            z = z.permute(0, 2, 1)
            z = self.revin_layer(z, 'denorm')
            z = z.permute(0, 2, 1)
        return z

class Model(nn.Module):
    def __init__(self, enc_in, seq_len, pred_len, patch_len=16, stride=8):
        super().__init__()
        self.model = PatchTST_backbone(enc_in, seq_len, pred_len, patch_len, stride)

    def forward(self, x):                                   # x: [Batch, Input length, Channel]
        x = x.permute(0, 2, 1)
        x = self.model(x)
        return x.permute(0, 2, 1)

device = torch.device("cuda:0")
model = Model(enc_in=7, seq_len=96, pred_len=24).to(device)
batch_x = torch.randn(4, 96, 7).float().to(device)
'''
CELL = '''
outputs = model(batch_x)
print(outputs.shape, model.model.revin_layer.mean.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
