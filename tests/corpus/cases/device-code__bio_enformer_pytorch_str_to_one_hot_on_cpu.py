"""enformer-pytorch on a GPU fed DNA strings: `str_to_one_hot` builds the one-hot tensor on the CPU inside `forward`.

Source: https://github.com/lucidrains/enformer-pytorch/pull/34
`Enformer.forward` accepts raw sequence strings and converts them with `str_to_one_hot(x)`, which
"does not attempt to ensure that the produced tensor is on the same device as Enformer": with the
model on cuda, passing a string failed with a cuda/cpu mismatch in the stem. The PR moves the
encoded sequence to the model's device. Stand-in: `str_to_one_hot` via a CPU lookup table, a
pointwise (Linear) stem instead of the Conv1d stem, a pooled trunk and the human head.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

def cast_list(t):
    return t if isinstance(t, list) else [t]

def str_to_one_hot(seq_strs):
    embed = torch.cat([torch.eye(4), torch.full((1, 4), 0.25)])       # ACGT + N
    idx = {"a": 0, "c": 1, "g": 2, "t": 3, "n": 4}
    seq_chrs = [[idx[c] for c in s.lower()] for s in cast_list(seq_strs)]
    return torch.stack([embed[torch.tensor(s)] for s in seq_chrs])

class Enformer(nn.Module):
    def __init__(self, dim=32, output_heads=dict(human=16)):
        super().__init__()
        self.stem = nn.Linear(4, dim)                   # Conv1d(4, dim, 15) in the original
        self.trunk = nn.Sequential(nn.GELU(), nn.Linear(dim, dim))
        self._heads = nn.ModuleDict({k: nn.Linear(dim, v) for k, v in output_heads.items()})

    @property
    def device(self):
        return self.stem.weight.device

    def forward(self, x, head=None):
        if isinstance(x, (list, str)):
            x = str_to_one_hot(x)
        x = self.stem(x)
        x = self.trunk(x)
        out = {k: nn.functional.softplus(h(x)) for k, h in self._heads.items()}
        return out[head] if head is not None else out

model = Enformer().eval()
model = model.to("cuda:0")
seqs = ["ACGTACGTNNACGTTTGACA", "TTGACAACGTACGTNNACGA"]
'''
CELL = '''
with torch.no_grad():
    output = model(seqs, head="human")
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["x"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            x = str_to_one_hot(x)\n", "            x = str_to_one_hot(x).to(self.device)\n")
CLEAN = False
