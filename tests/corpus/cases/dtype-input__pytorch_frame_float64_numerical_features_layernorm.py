"""PyTorch Frame Trompt on a pandas table: the numerical feature tensor is float64, the LayerNorm float32.

Source: https://github.com/pyg-team/pytorch-frame/pull/135
"convert to float32 by default. Otherwise I am getting `torch.layer_norm(...)` RuntimeError: expected
scalar type Double but found Float. This happens in Trompt as well": the numerical columns of the
DataFrame were materialised into the TensorFrame as float64, the per-column linear encoder promotes
to float64, and the model's LayerNorm (float32) refuses it. Stand-in: TensorFrame and a Trompt-like
encoder + LayerNorm + head. Run on the CPU (a dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn

class TensorFrame:
    """Stand-in for torch_frame.TensorFrame: one feature tensor per semantic type."""
    def __init__(self, feat_dict, col_names_dict, y=None):
        self.feat_dict, self.col_names_dict, self.y = feat_dict, col_names_dict, y

class LinearEncoder(nn.Module):
    def __init__(self, num_cols, channels):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(num_cols, channels))
        self.bias = nn.Parameter(torch.zeros(num_cols, channels))

    def forward(self, feat):
        return feat.unsqueeze(-1) * self.weight + self.bias

class Trompt(nn.Module):
    def __init__(self, num_cols, channels=16, out_channels=2):
        super().__init__()
        self.encoder = LinearEncoder(num_cols, channels)
        self.norm = nn.LayerNorm(channels)
        self.head = nn.Linear(channels, out_channels)

    def forward(self, tf):
        x = self.encoder(tf.feat_dict["numerical"])
        x = self.norm(x).mean(dim=1)
        return self.head(x)

rng = np.random.default_rng(0)
df_values = rng.normal(size=(32, 5))                     # df[numerical_cols].values: float64
tf = TensorFrame({"numerical": torch.from_numpy(df_values)},
                 {"numerical": [f"x{i}" for i in range(5)]},
                 y=torch.from_numpy(rng.integers(0, 2, size=32)))
model = Trompt(num_cols=5)
'''
CELL = '''
out = model(tf)
loss = nn.functional.cross_entropy(out, tf.y)
'''
EXPECT_ERROR = ("mixed dtype (CPU): all inputs must share same datatype",
                "expected scalar type Double but found Float")
CULPRITS = ["tf.feat_dict['numerical']"]
FIX = "namespace"
REFERENCE_FIX = '''
tf.feat_dict["numerical"] = tf.feat_dict["numerical"].float()
'''
REFERENCE_EDIT = None
CLEAN = False
