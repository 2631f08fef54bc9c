"""PyTorch Geometric Temporal's HeteroGCLSTM keeps its per-node-type gate weights in plain Python dicts, so `model.to(device)` leaves them on the CPU.

Source: https://github.com/benedekrozemberczki/pytorch_geometric_temporal/pull/180
"Change dicts to nn.ParameterDicts so setting the model device changes parameters": HeteroGCLSTM
stored `self.W_i = {node_type: Parameter(...)}` (and b_i, W_f, b_f, W_c, b_c, W_o, b_o) as ordinary
dicts; they are not registered, so moving the model to the GPU left them on the CPU (and out of
`model.parameters()`), and `torch.matmul(X, self.W_i[node_type])` failed on the GPU features. The PR
wraps each dict in `nn.ParameterDict`. Stand-in: the four gates' weight/bias dicts are built by one
helper, and HeteroConv(SAGEConv) over the edge types is replaced by a per-node-type linear map of
the hidden state.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn
from torch.nn import Parameter

class HeteroGCLSTM(torch.nn.Module):
    def __init__(self, in_channels_dict, out_channels, metadata, bias=True):
        super().__init__()
        self.in_channels_dict = in_channels_dict
        self.out_channels = out_channels
        self.metadata = metadata
        self.bias = bias
        self.W_i, self.b_i, self.conv_i = self._create_gate()
        self.W_f, self.b_f, self.conv_f = self._create_gate()
        self.W_c, self.b_c, self.conv_c = self._create_gate()
        self.W_o, self.b_o, self.conv_o = self._create_gate()
        self.reset_parameters()

    def _gate_params(self):
        W = {node_type: Parameter(torch.Tensor(in_channels, self.out_channels))
             for node_type, in_channels in self.in_channels_dict.items()}
        b = {node_type: Parameter(torch.Tensor(1, self.out_channels))
             for node_type in self.in_channels_dict}
        return W, b

    def _create_gate(self):
        W, b = self._gate_params()
        conv = nn.ModuleDict({node_type: nn.Linear(self.out_channels, self.out_channels, bias=self.bias)
                              for node_type in self.metadata[0]})
        return W, b, conv

    def reset_parameters(self):
        for W in (self.W_i, self.W_f, self.W_c, self.W_o):
            for p in W.values():
                nn.init.xavier_uniform_(p)
        for b in (self.b_i, self.b_f, self.b_c, self.b_o):
            for p in b.values():
                nn.init.zeros_(p)

    def _set_hidden_state(self, x_dict, h_dict):
        if h_dict is None:
            h_dict = {node_type: torch.zeros(X.shape[0], self.out_channels).to(X.device)
                      for node_type, X in x_dict.items()}
        return h_dict

    def _set_cell_state(self, x_dict, c_dict):
        if c_dict is None:
            c_dict = {node_type: torch.zeros(X.shape[0], self.out_channels).to(X.device)
                      for node_type, X in x_dict.items()}
        return c_dict

    def _gate(self, x_dict, h_dict, W, b, conv):
        out = {node_type: torch.matmul(X, W[node_type]) for node_type, X in x_dict.items()}
        out = {node_type: I + conv[node_type](h_dict[node_type]) for node_type, I in out.items()}
        return {node_type: I + b[node_type] for node_type, I in out.items()}

    def forward(self, x_dict, edge_index_dict, h_dict=None, c_dict=None):
        h_dict = self._set_hidden_state(x_dict, h_dict)
        c_dict = self._set_cell_state(x_dict, c_dict)
        i_dict = {k: torch.sigmoid(v) for k, v in self._gate(x_dict, h_dict, self.W_i, self.b_i, self.conv_i).items()}
        f_dict = {k: torch.sigmoid(v) for k, v in self._gate(x_dict, h_dict, self.W_f, self.b_f, self.conv_f).items()}
        t_dict = {k: torch.tanh(v) for k, v in self._gate(x_dict, h_dict, self.W_c, self.b_c, self.conv_c).items()}
        c_dict = {k: f_dict[k] * c_dict[k] + i_dict[k] * t_dict[k] for k in c_dict}
        o_dict = {k: torch.sigmoid(v) for k, v in self._gate(x_dict, h_dict, self.W_o, self.b_o, self.conv_o).items()}
        h_dict = {k: o_dict[k] * torch.tanh(c_dict[k]) for k in o_dict}
        return h_dict, c_dict

class RecurrentHeteroGCN(torch.nn.Module):
    def __init__(self, in_channels_dict, metadata, hidden=16):
        super().__init__()
        self.recurrent = HeteroGCLSTM(in_channels_dict, hidden, metadata)
        self.lin = nn.Linear(hidden, 1)

    def forward(self, x_dict, edge_index_dict):
        h_dict, _ = self.recurrent(x_dict, edge_index_dict)
        return {k: self.lin(torch.relu(h)) for k, h in h_dict.items()}

device = torch.device("cuda:0")
node_types = ["author", "paper"]
metadata = (node_types, [("author", "writes", "paper"), ("paper", "rev_writes", "author")])
in_channels_dict = {"author": 8, "paper": 12}
model = RecurrentHeteroGCN(in_channels_dict, metadata).to(device)
x_dict = {"author": torch.randn(30, 8).to(device), "paper": torch.randn(50, 12).to(device)}
edge_index_dict = {("author", "writes", "paper"): torch.stack([torch.arange(30), torch.arange(30)]).to(device),
                   ("paper", "rev_writes", "author"): torch.stack([torch.arange(30), torch.arange(30)]).to(device)}
'''
CELL = '''
with torch.no_grad():
    out_dict = model(x_dict, edge_index_dict)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.recurrent.W_i"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """        W = {node_type: Parameter(torch.Tensor(in_channels, self.out_channels))
             for node_type, in_channels in self.in_channels_dict.items()}
        b = {node_type: Parameter(torch.Tensor(1, self.out_channels))
             for node_type in self.in_channels_dict}""",
    """        W = nn.ParameterDict({node_type: Parameter(torch.Tensor(in_channels, self.out_channels))
             for node_type, in_channels in self.in_channels_dict.items()})
        b = nn.ParameterDict({node_type: Parameter(torch.Tensor(1, self.out_channels))
             for node_type in self.in_channels_dict})""",
)
CLEAN = False
