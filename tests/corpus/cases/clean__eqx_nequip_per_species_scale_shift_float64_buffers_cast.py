"""Look-alike: NequIP keeps per-species scales/shifts as float64 buffers in a float32 model and casts them when applied.

Source: https://github.com/mir-group/nequip/blob/main/nequip/nn/_atomwise.py
`PerSpeciesScaleShift` registers `scales`/`shifts` in the default (float64) dtype while the network runs
in `model_dtype` float32; its forward indexes them by species and converts to the field's dtype before the
multiply-add, so the mixed dtypes are intended. Stand-in: the scale/shift module after a float32 per-atom
energy head.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class PerSpeciesScaleShift(nn.Module):
    def __init__(self, scales, shifts):
        super().__init__()
        self.register_buffer("scales", torch.as_tensor(scales, dtype=torch.float64))
        self.register_buffer("shifts", torch.as_tensor(shifts, dtype=torch.float64))
    def forward(self, species_idx, in_field):
        scales = self.scales[species_idx].view(-1, 1).to(in_field.dtype)
        shifts = self.shifts[species_idx].view(-1, 1).to(in_field.dtype)
        return shifts + scales * in_field

class EnergyModel(nn.Module):
    def __init__(self, num_types=2, dim=16):
        super().__init__()
        self.embed = nn.Embedding(num_types, dim)
        self.head = nn.Linear(dim, 1)
        self.scale_shift = PerSpeciesScaleShift([0.51, 0.83], [-3.12, -4.75])
    def forward(self, atom_types):
        atomic_energy = self.head(self.embed(atom_types))
        return self.scale_shift(atom_types, atomic_energy).sum()

model = EnergyModel()
atom_types = torch.tensor([0, 1, 1, 0])
'''
CELL = '''
total_energy = model(atom_types)
print(total_energy.dtype, model.scale_shift.scales.dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
