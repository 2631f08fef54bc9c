"""TorchRec: `new_zeros` moved into a `torch.jit.script`ed helper so a traced sparse-feature module reads the device at run time.

Source: https://github.com/meta-pytorch/torchrec/pull/979
"If we do jit.trace, we will hard the device in the new_zeros call. So we switch to scripting when
entering this function." After the change the offsets are built by a scripted function from the
incoming `lengths`, so the module traced on one device runs on the GPU with its zeros made on the
input's device. Look-alike: a tensor created inside forward, a model traced elsewhere, and no
mismatch. Stand-in: the scripted helper as plain Python, a tiny jagged pooling module.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

def _cumsum_offsets(lengths: torch.Tensor) -> torch.Tensor:   # @torch.jit.script in torchrec
    zero = lengths.new_zeros(1)
    return torch.cat([zero, torch.cumsum(lengths, dim=0)])

class PooledEmbedding(nn.Module):
    def __init__(self, num_embeddings=100, dim=16):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(num_embeddings, dim))

    def forward(self, values, lengths):
        offsets = _cumsum_offsets(lengths)
        return torch.nn.functional.embedding_bag(values, self.weight, offsets, mode="sum",
                                               include_last_offset=True)

ebc = PooledEmbedding().to("cuda:0")
values = torch.randint(0, 100, (12,)).to("cuda:0")
lengths = torch.tensor([3, 5, 4]).to("cuda:0")
'''
CELL = '''
pooled = ebc(values, lengths)
print(pooled.shape, pooled.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
