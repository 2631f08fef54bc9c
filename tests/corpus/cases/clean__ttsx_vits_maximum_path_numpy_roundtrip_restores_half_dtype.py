"""VITS monotonic alignment search: `maximum_path` runs in float32/int32 numpy and casts the path back to the caller's dtype.

Source: https://github.com/jaywalnut310/vits (monotonic_align/__init__.py: maximum_path; models.py SynthesizerTrn.forward)
`maximum_path(neg_cent, mask)` records `device = neg_cent.device; dtype = neg_cent.dtype`, converts
`neg_cent.data.cpu().numpy().astype(np.float32)` and the lengths to int32 for the Cython kernel, and
returns `torch.from_numpy(path).to(device=device, dtype=dtype)`; with fp16 training the float32/int32
arrays never meet the half tensors, and the returned attention is fp16 again for
`torch.matmul(attn.squeeze(1), m_p.transpose(1, 2))`. Look-alike: explicit float32/int32 casts in the
middle of a half-precision forward, that are right.
Stand-ins: a small pure-numpy `maximum_path_c`, the neg_cent computation of SynthesizerTrn.forward on
random fp16 priors; CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import math
import numpy as np
import torch

def maximum_path_c(path, value, t_ys, t_xs):
    for b in range(value.shape[0]):
        t_y, t_x = t_ys[b], t_xs[b]
        v = np.full((t_y, t_x), -1e9, dtype=np.float32)
        for y in range(t_y):
            for x in range(max(0, t_x + y - t_y), min(t_x, y + 1)):
                prev = 0.0 if y == 0 else max(v[y - 1, x], v[y - 1, x - 1] if x > 0 else -1e9)
                v[y, x] = value[b, y, x] + prev
        index = t_x - 1
        for y in range(t_y - 1, -1, -1):
            path[b, y, index] = 1
            if index != 0 and (index == y or v[y - 1, index] < v[y - 1, index - 1]):
                index -= 1

def maximum_path(neg_cent, mask):
    device = neg_cent.device
    dtype = neg_cent.dtype
    neg_cent = neg_cent.data.cpu().numpy().astype(np.float32)
    path = np.zeros(neg_cent.shape, dtype=np.int32)
    t_t_max = mask.sum(1)[:, 0].data.cpu().numpy().astype(np.int32)
    t_s_max = mask.sum(2)[:, 0].data.cpu().numpy().astype(np.int32)
    maximum_path_c(path, neg_cent, t_t_max, t_s_max)
    return torch.from_numpy(path).to(device=device, dtype=dtype)

torch.manual_seed(0)
dtype = torch.float16                       # fp16 training (autocast / model.half())
m_p = torch.randn(1, 4, 5).to(dtype)        # text prior mean [b, d, t_t]
logs_p = (0.1 * torch.randn(1, 4, 5)).to(dtype)
z_p = torch.randn(1, 4, 9).to(dtype)        # flow output [b, d, t_s]
x_mask = torch.ones(1, 1, 5, dtype=dtype)
y_mask = torch.ones(1, 1, 9, dtype=dtype)
'''
CELL = '''
with torch.no_grad():
    s_p_sq_r = torch.exp(-2 * logs_p)
    neg_cent1 = torch.sum(-0.5 * math.log(2 * math.pi) - logs_p, [1], keepdim=True)
    neg_cent2 = torch.matmul(-0.5 * (z_p ** 2).transpose(1, 2), s_p_sq_r)
    neg_cent3 = torch.matmul(z_p.transpose(1, 2), (m_p * s_p_sq_r))
    neg_cent4 = torch.sum(-0.5 * (m_p ** 2) * s_p_sq_r, [1], keepdim=True)
    neg_cent = neg_cent1 + neg_cent2 + neg_cent3 + neg_cent4
    attn_mask = torch.unsqueeze(x_mask, 2) * torch.unsqueeze(y_mask, -1)
    attn = maximum_path(neg_cent, attn_mask.squeeze(1)).unsqueeze(1).detach()
m_p_expanded = torch.matmul(attn.squeeze(1), m_p.transpose(1, 2)).transpose(1, 2)
print(attn.dtype, m_p_expanded.shape)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
