"""A recurrent graph cell makes its default hidden state with torch.zeros in a helper method.

Source: https://github.com/benedekrozemberczki/pytorch_geometric_temporal/issues/18
DCRNN._set_hidden_state returns torch.zeros(X.shape[0], self.out_channels) when no H is given;
the user moved the model and the node features to cuda and got "All input tensors must be on the
same device. Received cuda:0 and cpu" from the torch.cat of X and H. Stand-in: a small cell with
the same helper and concatenation (no torch_geometric).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

class DCRNNCell(nn.Module):
    def __init__(self, in_channels=4, out_channels=8):
        super().__init__()
        self.out_channels = out_channels
        self.update_gate = nn.Linear(in_channels + out_channels, out_channels)
        self.candidate = nn.Linear(in_channels + out_channels, out_channels)

    def _set_hidden_state(self, X, H):
        if H is None:
            H = torch.zeros(X.shape[0], self.out_channels)
        return H

    def forward(self, X, H=None):
        H = self._set_hidden_state(X, H)
        XH = torch.cat([X, H], dim=-1)
        Z = torch.sigmoid(self.update_gate(XH))
        H_tilde = torch.tanh(self.candidate(XH))
        return Z * H + (1 - Z) * H_tilde

recurrent = DCRNNCell().to("cuda:0")
node_features = torch.randn(20, 4).to("cuda:0")
'''
CELL = '''
h = recurrent(node_features)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["recurrent"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "torch.zeros(X.shape[0], self.out_channels)",
    "torch.zeros(X.shape[0], self.out_channels, device=X.device)",
)
CLEAN = False
