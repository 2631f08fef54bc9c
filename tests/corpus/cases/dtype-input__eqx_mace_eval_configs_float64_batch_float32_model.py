"""MACE `eval_configs.py`: the configurations are batched in float64 (the script's default) for a float32-trained model.

Source: https://github.com/ACEsuit/mace/issues/191
"Error while Evaluation of model": `output = model(batch.to_dict(), compute_stress=...)` in
`scripts/eval_configs.py` raised "expected scalar type Double but found Float" at
`node_e0 = self.atomic_energies_fn(data["node_attrs"])`. The script calls
`torch.set_default_dtype(float64)` (`--default_dtype` defaults to float64), so the batch built from the
xyz configurations is float64 while the user's model was trained in float32; evaluating with
`--default_dtype float32` (float32 batch) fixes it. Stand-in: the E0 block + readout and the script's data
preparation reduced to a dict of one-hot `node_attrs` and positions.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class AtomicEnergiesBlock(nn.Module):
    def __init__(self, atomic_energies):
        super().__init__()
        self.register_buffer("atomic_energies", torch.tensor(atomic_energies, dtype=torch.float32))

    def forward(self, x):
        return torch.matmul(x, self.atomic_energies)

class MACE(nn.Module):
    def __init__(self, atomic_energies):
        super().__init__()
        self.atomic_energies_fn = AtomicEnergiesBlock(atomic_energies)
        self.radial = nn.Linear(1, 8)
        self.readout = nn.Linear(8, 1)

    def forward(self, data, compute_stress=False):
        node_e0 = self.atomic_energies_fn(data["node_attrs"])
        r = data["positions"].norm(dim=-1, keepdim=True)
        return {"energy": (node_e0 + self.readout(torch.tanh(self.radial(r))).squeeze(-1)).sum()}

model = MACE([-13.6, -1029.0, -2041.0])          # torch.load(args.model): trained in float32

default_dtype = torch.float64                    # args.default_dtype = "float64"
numbers = [2, 0, 0]
batch = {
    "node_attrs": torch.nn.functional.one_hot(torch.tensor(numbers), 3).to(default_dtype),
    "positions": torch.tensor([[0.0, 0.0, 0.0], [0.96, 0.0, 0.0], [-0.24, 0.93, 0.0]], dtype=default_dtype),
}
'''
CELL = '''
output = model(batch, compute_stress=False)
'''
EXPECT_ERROR = ("same dtype", "expected scalar type")
CULPRITS = ["batch"]
FIX = "namespace"
REFERENCE_FIX = '''
batch = {k: v.float() for k, v in batch.items()}
'''
REFERENCE_EDIT = None
CLEAN = False
