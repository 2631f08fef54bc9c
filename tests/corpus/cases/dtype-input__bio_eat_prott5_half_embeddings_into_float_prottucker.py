"""EAT with `--use_tucker 1`: ProtT5 half-precision embeddings fed to the float32 ProtTucker projection.

Source: https://github.com/Rostlab/EAT/issues/7
"Floating point conversion issue with use_tucker": embedding-based annotation transfer works, but with
`--use_tucker 1` it fails in `ProtTucker.single_pass` right after "Loading Tucker checkpoint". The
embeddings come from `Rostlab/prot_t5_xl_half_uniref50-enc`, run in half precision, while the Tucker
checkpoint is loaded into a float32 model, so the first Linear sees Half input and Float weights.
Casting the embeddings to float32 before the Tucker pass resolves it. Stand-in: the embeddings as
half tensors (no ProtT5 download), ProtTucker as its two-layer projection; dtype-only, on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class ProtTucker(nn.Module):
    def __init__(self):
        super().__init__()
        self.tucker = nn.Sequential(nn.Linear(1024, 256), nn.Tanh(), nn.Linear(256, 128))
    def single_pass(self, x):
        return self.tucker(x)

class EAT:
    def __init__(self, n_lookup=50, n_query=50):
        # ProtT5-XL-U50 (half) per-protein embeddings, as get_embeddings() returns them on the GPU
        self.lookup_embs = torch.randn(n_lookup, 1024).half()
        self.query_embs = torch.randn(n_query, 1024).half()

    def tucker_embeddings(self, dataset):
        model = ProtTucker()
        model.load_state_dict(ProtTucker().state_dict())        # temp/tucker_weights.pt
        model.eval()
        with torch.no_grad():
            dataset = model.single_pass(dataset)
        return dataset

eater = EAT()
'''
CELL = '''
eater.lookup_embs = eater.tucker_embeddings(eater.lookup_embs)
eater.query_embs = eater.tucker_embeddings(eater.query_embs)
'''
EXPECT_ERROR = ("same dtype", "expected scalar type", "should be the same")
CULPRITS = ["eater.lookup_embs"]
FIX = "namespace"
REFERENCE_FIX = '''
eater.lookup_embs = eater.lookup_embs.float()
eater.query_embs = eater.query_embs.float()
'''
REFERENCE_EDIT = None
CLEAN = False
