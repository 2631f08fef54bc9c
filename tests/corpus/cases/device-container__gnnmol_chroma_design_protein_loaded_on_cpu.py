"""Chroma protein redesign on a GPU: `Protein('1GFP')` keeps its coordinate tensors on the CPU, `Chroma()` is on cuda.

Source: https://github.com/generatebio/chroma/issues/34
`chroma = Chroma(); protein = Protein(...); protein = chroma.design(protein)` failed with "Expected all
tensors to be on the same device ... cuda:0 and cpu!" in `GraphDesign.encode`. `Chroma()` puts its
networks on cuda when available, while a `Protein` is built on the CPU unless `device=` is given; the
maintainer confirmed the fix `Protein(..., device='cuda:0')` ("Protein and Chroma need to be on the
same device"). Stand-in: `Protein` as a holder of the XCS tensors (random backbone instead of a
download), `Chroma.design` calling a one-layer graph-design encoder on the backbone features.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
from torch import nn

class Protein:
    def __init__(self, protein_input, device="cpu"):
        g = torch.Generator().manual_seed(len(protein_input))
        n = 24                                               # residues parsed from the structure
        self._X = torch.randn(1, n, 4, 3, generator=g).to(device)   # N, CA, C, O coordinates
        self._C = torch.ones(1, n, dtype=torch.long).to(device)     # chain map
        self._S = torch.randint(0, 20, (1, n), generator=g).to(device)
        self.device = device

    def to_XCS(self):
        return self._X, self._C, self._S

class GraphDesign(nn.Module):
    def __init__(self, dim_nodes=32, num_alphabet=20):
        super().__init__()
        self.W_node = nn.Linear(12, dim_nodes)
        self.W_out = nn.Linear(dim_nodes, num_alphabet)

    def encode(self, X, C, t=0.0):
        node_h = self.W_node(X.flatten(-2))
        mask_i = (C > 0).float()
        return node_h * mask_i.unsqueeze(-1), mask_i

    @torch.no_grad()
    def sample(self, X, C, S, t=0.0):
        node_h, mask_i = self.encode(X, C, t=t)
        logits = self.W_out(node_h)
        S_sample = logits.argmax(-1)
        return X, S_sample, logits

class Chroma(nn.Module):
    def __init__(self, device="cuda:0"):
        super().__init__()
        self.design_network = GraphDesign()
        self.to(device)

    def design(self, protein, design_selection=None):
        X, C, S = protein.to_XCS()
        X_sample, S_sample, _ = self.design_network.sample(X, C, S)
        out = Protein.__new__(Protein)
        out._X, out._C, out._S, out.device = X_sample, C, S_sample, protein.device
        return out

chroma = Chroma()
protein = Protein("/home/neil/sample.cif")
'''
CELL = '''
protein = chroma.design(protein)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["protein"]
FIX = "namespace"
REFERENCE_FIX = '''
protein = Protein("/home/neil/sample.cif", device="cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
