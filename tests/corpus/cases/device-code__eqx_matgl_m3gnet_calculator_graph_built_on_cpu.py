"""matgl `M3GNetCalculator` on a potential moved to cuda: the calculator builds the atom graph on the CPU.

Source: https://github.com/materialyzeai/matgl/issues/77
"Running MD with the pre-trained model in GPU": `pot = matgl.load_model(...)`, `pot.to("cuda")`,
`calc = M3GNetCalculator(pot)`, then MD/energy calls fail with conflicting devices. The calculator converts
the ASE atoms with `Atoms2Graph` into a graph, lattice and state features made with plain
`torch.tensor(...)` (CPU) and feeds them to the potential on cuda; the maintainers' workaround was to make
cuda the default device, later fixes move the graph to the potential's device. Stand-in: a tiny
Potential (embedding + bond MLP + readout), the converter and the calculator.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
from torch import nn

class Graph:
    def __init__(self, node_type, pos):
        self.node_type, self.pos = node_type, pos

class Atoms2Graph:
    def __init__(self, element_types, cutoff=5.0):
        self.element_types, self.cutoff = element_types, cutoff

    def get_graph(self, atoms):
        symbols, positions, cell = atoms
        node_type = torch.tensor([self.element_types.index(s) for s in symbols])
        g = Graph(node_type, torch.tensor(positions, dtype=torch.float32))
        lattice = torch.tensor(cell, dtype=torch.float32).unsqueeze(0)
        state_attr = torch.zeros(1, 2)
        return g, lattice, state_attr

class Potential(nn.Module):
    def __init__(self, n_elements=89, dim=32):
        super().__init__()
        self.embedding = nn.Embedding(n_elements, dim)
        self.bond_mlp = nn.Linear(1, dim)
        self.state_mlp = nn.Linear(2, dim)
        self.readout = nn.Linear(dim, 1)

    def forward(self, g, lattice, state_attr):
        d = torch.cdist(g.pos, g.pos).sum(-1, keepdim=True)
        h = self.embedding(g.node_type) + self.bond_mlp(d) + self.state_mlp(state_attr)
        return self.readout(h).sum() + 0.0 * lattice.sum()

class M3GNetCalculator:
    def __init__(self, potential, element_types=("Pt",)):
        self.potential = potential
        self.converter = Atoms2Graph(list(element_types))

    def calculate(self, atoms):
        g, lat, state_attr = self.converter.get_graph(atoms)
        return self.potential(g, lat, state_attr)

pot = Potential()                       # matgl.load_model("M3GNet-MP-2021.2.8-PES")
pot.to("cuda:0")
calc = M3GNetCalculator(pot)
atoms = (["Pt"] * 4, 1.96 * np.array([[0, 0, 0], [0, 1, 1], [1, 0, 1], [1, 1, 0]], dtype=float), 3.92 * np.eye(3))
'''
CELL = '''
with torch.no_grad():
    e = calc.calculate(atoms)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["g"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        return self.potential(g, lat, state_attr)",
                  "        dev = next(self.potential.parameters()).device\n        g.node_type, g.pos = g.node_type.to(dev), g.pos.to(dev)\n        return self.potential(g, lat.to(dev), state_attr.to(dev))")
CLEAN = False
