"""GRU-ODE-Bayes on the climate data: the observation index arrives as a float tensor.

Source: https://github.com/edebrouwer/gru_ode_bayes/issues/7
Running climate_gruode.py failed at `p_obs = p[i_obs]` with "IndexError: tensors used as indices
must be long, byte or bool tensors"; the fix in the thread was `i_obs = i_obs.to(torch.long)`.
The per-time-step index of observed series came out of the collate function as floats (it is
built from a pandas/NumPy float column). Stand-in: the collated batch and the observation update.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import numpy as np
import torch
from torch import nn

class GRUObsCell(nn.Module):
    def __init__(self, input_size=5, hidden_size=12):
        super().__init__()
        self.p_model = nn.Linear(hidden_size, 2 * input_size)
        self.gru_d = nn.GRUCell(2 * input_size, hidden_size)

    def forward(self, h, X_obs, M_obs, i_obs):
        p = self.p_model(h)
        p_obs = p[i_obs]
        mean, logvar = torch.chunk(p_obs, 2, dim=1)
        error = (X_obs - mean) / torch.exp(0.5 * logvar)
        loss = 0.5 * ((error.pow(2) + logvar) * M_obs).sum()
        h = h.clone()
        h[i_obs] = self.gru_d(torch.cat([X_obs, M_obs], dim=1), h[i_obs])
        return h, loss

def collate(df_rows):
    ids = np.array([r[0] for r in df_rows], dtype=np.float64)    # the ID column, read as float
    X = np.stack([r[1] for r in df_rows]).astype(np.float32)
    return {"i_obs": torch.tensor(ids), "X_obs": torch.from_numpy(X), "M_obs": torch.ones(len(ids), 5)}

model = GRUObsCell()
h = torch.zeros(16, 12)
b = collate([(i, np.random.randn(5)) for i in (0, 3, 4, 9, 15)])
'''
CELL = '''
h, loss = model(h, b["X_obs"], b["M_obs"], b["i_obs"])
'''
EXPECT_ERROR = "tensors used as indices must be long"
CULPRITS = ["b['i_obs']"]
FIX = "namespace"
REFERENCE_FIX = '''
b["i_obs"] = b["i_obs"].to(torch.long)
'''
REFERENCE_EDIT = None
CLEAN = False
