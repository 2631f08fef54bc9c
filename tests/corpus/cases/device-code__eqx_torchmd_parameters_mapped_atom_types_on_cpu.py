"""TorchMD example on cuda: `Forces.compute` fails in the Lennard-Jones term on CPU/CUDA index tensors.

Source: https://github.com/torchmd/torchmd/issues/30
"Running example fails on computation of forces": following the README example with
`device = torch.device("cuda:0")`, `forces.compute(system.pos, system.box, system.forces)` raised a device
mismatch inside `evaluate_LJ(nb_dist, ava_idx, self.par.mapped_atom_types, self.par.A, self.par.B, ...)`.
The per-atom type map built by `Parameters` is made from a Python list without the requested device,
while the LJ tables `A`/`B` and the positions are on cuda (a follow-up report, #38, describes it as a
GPU/CPU mismatch between indices). Stand-in: `Parameters` with the type map and the A/B tables,
`Forces` reduced to the LJ term, the type lookup written as a one-hot product.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

class Parameters:
    def __init__(self, atom_types, lj_sigma, lj_eps, precision=torch.float32, device="cpu"):
        types = sorted(set(atom_types))
        self.mapped_atom_types = torch.tensor([types.index(t) for t in atom_types])
        sigma = torch.tensor([lj_sigma[t] for t in types], dtype=precision)
        eps = torch.tensor([lj_eps[t] for t in types], dtype=precision)
        sij = 0.5 * (sigma[:, None] + sigma[None, :])
        eij = torch.sqrt(eps[:, None] * eps[None, :])
        self.A = (4 * eij * sij ** 12).to(device)
        self.B = (4 * eij * sij ** 6).to(device)
        self.ntypes = len(types)

def evaluate_LJ(dist, atomtypes, A, B, ntypes):
    onehot = torch.nn.functional.one_hot(atomtypes, ntypes).to(A.dtype)
    aa = onehot @ A @ onehot.T
    bb = onehot @ B @ onehot.T
    rinv6 = (1.0 / (dist + torch.eye(dist.shape[0], device=dist.device))) ** 6
    return (aa * rinv6 ** 2 - bb * rinv6).triu(1).sum()

class Forces:
    def __init__(self, parameters, cutoff=9.0):
        self.par, self.cutoff = parameters, cutoff

    def compute(self, pos):
        nb_dist = torch.cdist(pos[0], pos[0])
        return evaluate_LJ(nb_dist, self.par.mapped_atom_types, self.par.A, self.par.B, self.par.ntypes)

precision = torch.float
device = torch.device("cuda:0")
parameters = Parameters(["CT", "HC", "HC", "OH"], {"CT": 3.4, "HC": 2.6, "OH": 3.1},
                        {"CT": 0.11, "HC": 0.016, "OH": 0.21}, precision=precision, device=device)
forces = Forces(parameters, cutoff=9)
pos = (3.0 * torch.randn(1, 4, 3)).to(device)           # system.pos
'''
CELL = '''
with torch.no_grad():
    Epot = forces.compute(pos)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["parameters.mapped_atom_types"]
FIX = "namespace"
REFERENCE_FIX = '''
parameters.mapped_atom_types = parameters.mapped_atom_types.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
