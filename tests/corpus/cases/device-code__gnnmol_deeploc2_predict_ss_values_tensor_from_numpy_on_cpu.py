"""DeepLoc-2.0 sorting-signal outputs on a GPU: `predict_ss_values` builds the input tensor from numpy on the CPU.

Source: https://github.com/teevee112/DeepLoc-2.0/pull/2
Generating the signal-type outputs after `train_ss.py` failed with "Expected all tensors to be on the
same device ... cuda:0 and cpu! (when checking argument for argument mat1 in method
wrapper_CUDA_addmm)": `generate_ss_outputs` loads `SignalTypeMLP ... .to(device)`, but
`predict_ss_values(X, model)` calls `model(torch.tensor(X).float())` with the numpy embeddings turned
into a CPU tensor. The merged fix creates it with `torch.tensor(X, device=device)`. Stand-in: the
SignalTypeMLP as a two-layer MLP over protein-LM embeddings, the datahandler's numpy arrays, and the
function returning the CPU tensor instead of `.numpy()` (not available in the simulation).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
from torch import nn

device = torch.device("cuda:0")

class SignalTypeMLP(nn.Module):                  # pl.LightningModule
    def __init__(self, embed_dim=64, num_types=9):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(embed_dim, 32), nn.ReLU(), nn.Linear(32, num_types))

    def forward(self, x):
        return self.mlp(x)

def predict_ss_values(X, model):
    y_preds = torch.sigmoid(model(torch.tensor(X).float()))
    return y_preds.detach().cpu()                # .numpy() in DeepLoc-2.0

rng = np.random.RandomState(0)
X_train, y_train = rng.randn(16, 64), rng.randint(0, 2, (16, 9))     # datahandler.get_swissprot_ss_xy(...)
X_test, y_test = rng.randn(8, 64), rng.randint(0, 2, (8, 9))
model = SignalTypeMLP().to(device).eval()        # SignalTypeMLP.load_from_checkpoint(path).to(device).eval()
'''
CELL = '''
with torch.no_grad():
    y_train_preds = predict_ss_values(X_train, model)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["X"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "model(torch.tensor(X).float())",
    "model(torch.tensor(X, device=device).float())",
)
CLEAN = False
