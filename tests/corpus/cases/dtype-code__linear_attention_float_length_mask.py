"""Linear attention in fp16 multiplies the keys by a length mask that is always float32.

Source: https://github.com/idiap/fast-transformers/issues/62
Training a linear transformer in fp16 (DeepSpeed) failed with "Expected object of scalar type
Float but got scalar type Half for argument #2 'mat2'": LinearAttention does
`K = K * key_lengths.float_matrix[:, :, None, None]`, and the LengthMask's `float_matrix` is
built as float32 whatever the model's dtype, so the keys were promoted to float32 while the
values stayed half. The user's workaround was `.half()` on that line; the dtype belongs to the
code (`.to(K.dtype)`), not to the user's tensors. Stand-in: LengthMask and the attention.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn

class LengthMask:
    def __init__(self, lengths, max_len):
        self.lengths = lengths
        self.max_len = max_len

    @property
    def float_matrix(self):
        return (torch.arange(self.max_len)[None, :] < self.lengths[:, None]).float()

class LinearAttention(nn.Module):
    def __init__(self, eps=1e-6):
        super().__init__()
        self.eps = eps

    def forward(self, queries, keys, values, key_lengths):
        Q = torch.nn.functional.elu(queries) + 1
        K = torch.nn.functional.elu(keys) + 1
        K = K * key_lengths.float_matrix[:, :, None, None]
        KV = torch.einsum("nshd,nshm->nhmd", K, values)
        Z = 1 / (torch.einsum("nlhd,nhd->nlh", Q, K.sum(dim=1)) + self.eps)
        return torch.einsum("nlhd,nhmd,nlh->nlhm", Q, KV, Z)

attention = LinearAttention()
N, L, H, D = 2, 6, 2, 4
queries = torch.randn(N, L, H, D).half()
keys = torch.randn(N, L, H, D).half()
values = torch.randn(N, L, H, D).half()
key_lengths = LengthMask(torch.tensor([6, 4]), max_len=L)
'''
CELL = '''
out = attention(queries, keys, values, key_lengths)
'''
EXPECT_ERROR = "expected scalar type Half but found Float"
CULPRITS = ["attention"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "K = K * key_lengths.float_matrix[:, :, None, None]",
    "K = K * key_lengths.float_matrix[:, :, None, None].to(K.dtype)",
)
CLEAN = False
