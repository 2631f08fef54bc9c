"""Look-alike: MatterSim's M3Gnet passes its `device` to `AtomScaling`, which calls `self.to(device)` in `__init__`; atomic numbers arrive as a float `atom_attr` and are cast to long inside `forward`.

Source: https://github.com/microsoft/mattersim/blob/main/src/mattersim/forcefield/m3gnet/m3gnet.py
`M3Gnet.__init__` builds `self.normalizer = AtomScaling(verbose=False, max_z=max_z, device=device)`
(see also `scaling.py`: `register_buffer("scale"/"shift", ...)` then `self.to(device)`), and
`forward` does `atomic_numbers = atom_attr.squeeze(1).long()`, embeds their one-hot encoding, and
rescales per-atom energies with `self.shift[atomic_numbers]`/`self.scale[atomic_numbers]` before
summing per structure. A float input cast inside and buffers built on the model's device: clean.
Stand-ins: the interaction blocks and `scatter_sum` reduced (index_add); meta plays the GPU.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class AtomScaling(nn.Module):
    """mattersim.forcefield.m3gnet.scaling.AtomScaling, reduced to init_scale/init_shift."""
    def __init__(self, max_z=94, init_scale=None, init_shift=None, verbose=False,
                 device="cuda" if torch.cuda.is_available() else "cpu", **kwargs):
        super().__init__()
        self.max_z = max_z
        self.device = device
        init_scale = torch.ones(max_z + 1) if init_scale is None else init_scale
        init_shift = torch.zeros(max_z + 1) if init_shift is None else init_shift
        self.register_buffer("scale", init_scale.float())
        self.register_buffer("shift", init_shift.float())
        self.to(device)

    def transform(self, atomic_energies, atomic_numbers):
        curr_shift = self.shift[atomic_numbers]
        curr_scale = self.scale[atomic_numbers]
        normalized_energies = curr_scale * atomic_energies + curr_shift
        return normalized_energies

    def forward(self, atomic_energies, atomic_numbers):
        return self.transform(atomic_energies, atomic_numbers)

class M3Gnet(nn.Module):
    """mattersim.forcefield.m3gnet.M3Gnet, reduced (no graph convolutions)."""
    def __init__(self, units=32, max_z=94, device="cuda" if torch.cuda.is_available() else "cpu"):
        super().__init__()
        self.atom_embedding = nn.Linear(max_z + 1, units, bias=False)
        self.final = nn.Sequential(nn.Linear(units, units), nn.SiLU(), nn.Linear(units, 1))
        self.normalizer = AtomScaling(verbose=False, max_z=max_z, device=device)
        self.max_z = max_z
        self.device = device

    def one_hot_atoms(self, species):
        dtype = self.atom_embedding.weight.dtype
        return F.one_hot(species, num_classes=self.max_z + 1).to(dtype)

    def forward(self, input):
        atom_attr = input["atom_attr"]
        batch = input["batch"]
        num_graphs = input["num_graphs"]
        atomic_numbers = atom_attr.squeeze(1).long()
        atom_attr = self.atom_embedding(self.one_hot_atoms(atomic_numbers))
        energies_i = self.final(atom_attr).view(-1)
        energies_i = self.normalizer(energies_i, atomic_numbers)
        energies = torch.zeros(num_graphs, device=energies_i.device).index_add_(0, batch, energies_i)
        return energies

device = "meta"   # the accelerator in this simulation (meta stands for cuda)
model = M3Gnet(device=device).to(device)
# two structures (Si8 and a water molecule) batched by the graph converter
atom_attr = torch.tensor([[14.0]] * 8 + [[8.0], [1.0], [1.0]], device=device)
batch = torch.tensor([0] * 8 + [1] * 3, device=device)
input = {"atom_attr": atom_attr, "batch": batch, "num_graphs": 2}
'''
CELL = '''
energies = model(input)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
