"""PySDDR data preparation: integer columns for a deep model keep their int64 dtype for `nn.Embedding`, float64 columns are cast to float32.

Source: https://github.com/HelmholtzAI-Consultants-Munich/PySDDR/blob/master/sddr/utils/prepare_data.py
After the fix for issue #3, `PrepareData` stores each neural network's input with
`torch.from_numpy(data[net_feature_names].to_numpy())` and casts it with `.float()` only when the
column block is float64; the training loop then sends each part with `.to(self.device)` and no cast.
A label-encoded categorical column therefore reaches the user's `nn.Embedding` as int64, while the
float64 structured part becomes float32 for the linear head.
Look-alike: a float64 frame, int64 codes and float32 weights side by side; it runs.
Stand-in: the per-network tensor conversion of `PrepareData` (the pandas frame is a dict of column
arrays; `data[names].to_numpy()` becomes a column stack) and a forward pass of
SddrFormulaNet's structured head plus the user's embedding network. CPU: dtype only.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

def prepare_net_input(data, net_feature_names):
    prepared = torch.from_numpy(np.stack([data[name] for name in net_feature_names], 1))
    if prepared.dtype == torch.float64:
        prepared = prepared.float()
    return prepared

class TumorSizeEmbedding(nn.Module):
    def __init__(self, n_levels=11, dim=4):
        super().__init__()
        self.embedding = nn.Embedding(n_levels, dim)
        self.fc = nn.Linear(dim, 4)

    def forward(self, x):
        return torch.relu(self.fc(self.embedding(x[:, 0])))

rng = np.random.default_rng(0)
data = {                                      # the user's frame, one array per column
    "age": rng.integers(20, 80, 286).astype(np.float64) / 10.0,
    "tumor_size": rng.integers(0, 11, 286),                   # LabelEncoder codes, int64
}
datadict = {"structured": prepare_net_input(data, ["age"]),
            "dnn": prepare_net_input(data, ["tumor_size"])}
structured_head = nn.Linear(1, 1, bias=False)
dnn = TumorSizeEmbedding()
deep_head = nn.Linear(4, 1, bias=False)
'''
CELL = '''
logits = structured_head(datadict["structured"]) + deep_head(dnn(datadict["dnn"]))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
