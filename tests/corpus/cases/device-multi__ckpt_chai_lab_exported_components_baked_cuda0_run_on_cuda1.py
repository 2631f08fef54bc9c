"""chai-lab: switching predict_structure.py from cuda:0 to cuda:1; the exported model components loaded onto cuda:1 still carry cuda:0 inside.

Source: https://github.com/chaidiscovery/chai-lab/issues/63
"I tested to change cuda:0 in predict_structure.py to cuda:1 with the following error: RuntimeError:
Expected all tensors to be on the same device, but found at least two devices, cuda:1 and cuda:0!"
The maintainer reproduced it, "Checked that all parameters are moved", and suggested one process per
GPU with CUDA_VISIBLE_DEVICES; the weight-loading scheme was later changed (PR #145) to support other
devices. Chai-1 ships its trunk/embedding components as exported (traced) modules, which were exported
on cuda:0, so device constants in their graphs stay cuda:0 when the component is loaded onto cuda:1.
Stand-in: one exported component written as the Python its graph amounts to.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
import torch.nn as nn

class ExportedFeatureEmbedding(nn.Module):     # load_exported("feature_embedding.pt", device)
    def __init__(self, n_feats=16, d=32):
        super().__init__()
        self.proj = nn.Linear(n_feats, d)

    def forward(self, token_feats):
        # constant recorded when the module was exported on cuda:0
        pair_bias = torch.zeros([1, token_feats.shape[1], 32], dtype=torch.float32, device=torch.device("cuda:0"))
        return self.proj(token_feats) + pair_bias

class ExportedTrunk(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.block = nn.Sequential(nn.Linear(d, d), nn.ReLU(), nn.Linear(d, d))

    def forward(self, x):
        return x + self.block(x)

def load_exported(name, device):
    comp = {"feature_embedding.pt": ExportedFeatureEmbedding, "trunk.pt": ExportedTrunk}[name]()
    return comp.to(device)

device = torch.device("cuda:1")               # was "cuda:0" in predict_structure.py
feature_embedding = load_exported("feature_embedding.pt", device)
trunk = load_exported("trunk.pt", device)
token_feats = torch.randn(1, 24, 16, device=device)
'''
CELL = '''
embedded = feature_embedding(token_feats)
representation = trunk(embedded)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["feature_embedding"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('device=torch.device("cuda:0"))', 'device=token_feats.device)')
CLEAN = False
