"""glue-factory GlueStick matcher under mixed precision: `scatter_reduce_` into a float32 buffer from float16 updates.

Source: https://github.com/cvg/glue-factory/issues/76
With `mixed_precision=True, mp_dtype=torch.float16` the line matcher's GNN failed at
`update0 = update0.scatter_reduce_(dim=2, index=lines_junc_idx0[:, None].repeat(1, dim, 1),
src=lupdate0, reduce="mean", include_self=False)` with "scatter(): Expected self.dtype to be equal
to src.dtype": `update0 = torch.zeros_like(ldesc0)` follows the float32 descriptors, while
`lupdate0` comes out of the endpoint MLP (a Conv1d) in float16 under autocast. The in-place
scatter cannot mix them; casting the source to the buffer's dtype makes it run.
Stand-in: `LineLayer` with its endpoint-update MLP, one image side; CPU autocast with float16
stands in for CUDA autocast (same dtypes).
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch
import torch.nn as nn

class LineLayer(nn.Module):
    def __init__(self, feature_dim):
        super().__init__()
        self.dim = feature_dim
        self.mlp = nn.Sequential(nn.Conv1d(3 * feature_dim, feature_dim, 1), nn.ReLU(),
                                 nn.Conv1d(feature_dim, feature_dim, 1))

    def get_endpoint_update(self, ldesc, line_enc, lines_junc_idx):
        b_size = lines_junc_idx.shape[0]
        line_desc = torch.gather(ldesc, 2, lines_junc_idx[:, None].repeat(1, self.dim, 1))
        message = torch.cat([line_desc,
                             line_desc.reshape(b_size, self.dim, -1, 2).flip([-1]).flatten(2, 3).clone(),
                             line_enc], dim=1)
        return self.mlp(message)

    def forward(self, ldesc0, line_enc0, lines_junc_idx0):
        lupdate0 = self.get_endpoint_update(ldesc0, line_enc0, lines_junc_idx0)
        update0 = torch.zeros_like(ldesc0)
        dim = ldesc0.shape[1]
        update0 = update0.scatter_reduce_(
            dim=2, index=lines_junc_idx0[:, None].repeat(1, dim, 1),
            src=lupdate0, reduce="mean", include_self=False)
        return ldesc0 + update0

layer = LineLayer(32)
n_junc, n_lines = 20, 12
ldesc0 = torch.randn(1, 32, n_junc)                         # float32 junction descriptors
line_enc0 = torch.randn(1, 32, n_lines * 2)
lines_junc_idx0 = torch.randint(0, n_junc, (1, n_lines * 2))
mp_dtype = torch.float16
'''
CELL = '''
with torch.autocast("cpu", dtype=mp_dtype):
    ldesc0_new = layer(ldesc0, line_enc0, lines_junc_idx0)
'''
EXPECT_ERROR = "Expected self.dtype to be equal to src.dtype"
CULPRITS = ["layer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "            src=lupdate0, reduce=\"mean\", include_self=False)",
    "            src=lupdate0.to(update0.dtype), reduce=\"mean\", include_self=False)",
)
CLEAN = False
