"""Look-alike: emle-engine's `MACEEMLE._to_one_hot` allocates the one-hot buffer with `device=indices.device` and scatters into it; the node attributes are then cast to the model dtype.

Source: https://github.com/chemle/emle-engine/blob/main/emle/models/_mace.py
`_to_one_hot(indices, num_classes)` does `oh = torch.zeros(shape, device=indices.device).view(shape)`
and `oh.scatter_(dim=-1, index=indices, value=1)`; `forward` uses the result as
`self._get_node_attrs(...).to(self._dtype).to(device)` for the MACE input dictionary. A factory call
inside a helper that takes its device from its argument, and a float32 one-hot cast to the model's
float64: nothing to report. Stand-in: MACE's node embedding reduced to a float64 Linear.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch as _torch
import torch

def _to_one_hot(indices: _torch.Tensor, num_classes: int) -> _torch.Tensor:
    """emle.models._mace.MACEEMLE._to_one_hot (a staticmethod there)."""
    shape = indices.shape[:-1] + (num_classes,)
    oh = _torch.zeros(shape, device=indices.device).view(shape)
    return oh.scatter_(dim=-1, index=indices, value=1)

device = torch.device("cuda:0")
_dtype = torch.float64
# MACE-OFF node embedding (10 elements), model kept in double precision
node_embedding = torch.nn.Linear(10, 64, bias=False).to(device=device, dtype=_dtype)
# z_table indices of the QM atoms, as produced on the GPU by the QM/MM interface
ids = torch.tensor([[3], [0], [0], [4], [0], [0]], device=device)
'''
CELL = '''
node_attrs = _to_one_hot(ids, num_classes=10).to(_dtype).to(device)
node_feats = node_embedding(node_attrs)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
