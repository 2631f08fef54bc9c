"""performer-pytorch `FastAttention.redraw_projection_matrix(device)`: each random block is QR-decomposed on the CPU on purpose, then moved back to the GPU.

Source: https://github.com/lucidrains/performer-pytorch/blob/main/performer_pytorch/performer_pytorch.py
`orthogonal_matrix_chunk` draws `torch.randn((cols, cols), device=device)`, runs
`torch.linalg.qr(unstructured_block.cpu(), mode='reduced')` on the CPU (QR was slow/unsupported on
the GPU), and maps `q, r` back with `.to(device)`; `redraw_projection_matrix` copies the new matrix
into the registered `projection_matrix` buffer, which lives on the GPU with the module. The `.cpu()`
round trip looks like a stray CPU tensor but everything that meets the queries is on their device.
Look-alike: runs. Stand-in: the file's kernel helpers, `gaussian_orthogonal_random_matrix` and the
non-causal `FastAttention` (einops `repeat` written as `expand`; the buffer update
`self.projection_matrix.copy_(projections)` written as an assignment to the registered buffer, same
values and device, since the simulated GPU cannot copy into a tensor).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
from functools import partial
import torch
from torch import nn

def default(val, d):
    return val if val is not None else d

def softmax_kernel(data, *, projection_matrix, is_query, normalize_data=True, eps=1e-4, device = None):
    b, h, *_ = data.shape
    data_normalizer = (data.shape[-1] ** -0.25) if normalize_data else 1.
    ratio = (projection_matrix.shape[0] ** -0.5)
    projection = projection_matrix.expand(b, h, *projection_matrix.shape)
    projection = projection.type_as(data)
    data_dash = torch.einsum('...id,...jd->...ij', (data_normalizer * data), projection)
    diag_data = data ** 2
    diag_data = torch.sum(diag_data, dim=-1)
    diag_data = (diag_data / 2.0) * (data_normalizer ** 2)
    diag_data = diag_data.unsqueeze(dim=-1)
    if is_query:
        data_dash = ratio * (
            torch.exp(data_dash - diag_data -
                    torch.amax(data_dash, dim=-1, keepdim=True).detach()) + eps)
    else:
        data_dash = ratio * (
            torch.exp(data_dash - diag_data - torch.amax(data_dash, dim=(-1, -2), keepdim=True).detach()) + eps)
    return data_dash.type_as(data)

def orthogonal_matrix_chunk(cols, device = None):
    unstructured_block = torch.randn((cols, cols), device = device)
    q, r = torch.linalg.qr(unstructured_block.cpu(), mode = 'reduced')
    q, r = map(lambda t: t.to(device), (q, r))
    return q.t()

def gaussian_orthogonal_random_matrix(nb_rows, nb_columns, scaling = 0, device = None):
    nb_full_blocks = int(nb_rows / nb_columns)
    block_list = []
    for _ in range(nb_full_blocks):
        q = orthogonal_matrix_chunk(nb_columns, device = device)
        block_list.append(q)
    remaining_rows = nb_rows - nb_full_blocks * nb_columns
    if remaining_rows > 0:
        q = orthogonal_matrix_chunk(nb_columns, device = device)
        block_list.append(q[:remaining_rows])
    final_matrix = torch.cat(block_list)
    if scaling == 0:
        multiplier = torch.randn((nb_rows, nb_columns), device = device).norm(dim = 1)
    elif scaling == 1:
        multiplier = math.sqrt((float(nb_columns))) * torch.ones((nb_rows,), device = device)
    else:
        raise ValueError(f'Invalid scaling {scaling}')
    return torch.diag(multiplier) @ final_matrix

def linear_attention(q, k, v):
    k_cumsum = k.sum(dim = -2)
    D_inv = 1. / torch.einsum('...nd,...d->...n', q, k_cumsum.type_as(q))
    context = torch.einsum('...nd,...ne->...de', k, v)
    out = torch.einsum('...de,...nd,...n->...ne', context, q, D_inv)
    return out

class FastAttention(nn.Module):
    def __init__(self, dim_heads, nb_features = None, ortho_scaling = 0):
        super().__init__()
        nb_features = default(nb_features, int(dim_heads * math.log(dim_heads)))
        self.dim_heads = dim_heads
        self.nb_features = nb_features
        self.ortho_scaling = ortho_scaling
        self.create_projection = partial(gaussian_orthogonal_random_matrix, nb_rows = self.nb_features, nb_columns = dim_heads, scaling = ortho_scaling)
        projection_matrix = self.create_projection()
        self.register_buffer('projection_matrix', projection_matrix)

    @torch.no_grad()
    def redraw_projection_matrix(self, device):
        projections = self.create_projection(device = device)
        self.projection_matrix = projections      # repo: self.projection_matrix.copy_(projections)

    def forward(self, q, k, v):
        device = q.device
        create_kernel = partial(softmax_kernel, projection_matrix = self.projection_matrix, device = device)
        q = create_kernel(q, is_query = True)
        k = create_kernel(k, is_query = False)
        return linear_attention(q, k, v)

attn_fn = FastAttention(dim_heads = 64, nb_features = 256).to("cuda:0")
q = torch.randn(1, 8, 512, 64, device="cuda:0")
k = torch.randn(1, 8, 512, 64, device="cuda:0")
v = torch.randn(1, 8, 512, 64, device="cuda:0")
'''
CELL = '''
attn_fn.redraw_projection_matrix(q.device)
out = attn_fn(q, k, v)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
