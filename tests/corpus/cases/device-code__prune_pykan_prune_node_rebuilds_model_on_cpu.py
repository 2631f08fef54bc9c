"""pykan `model.prune()` after GPU training: `prune_node` rebuilds the pruned MultKAN on the CPU.

Source: https://github.com/KindXiaoming/pykan/issues/386
"if you finish training a model and want to use prune() or prune_input(), prune_node(), they create the
new model and return, but the functions didn't move the model to the select device (so the model now is
in cpu)". `prune_node` builds `model2 = MultKAN(copy.deepcopy(self.width), ...)` (parameters on the CPU),
loads the state dict into it, and `prune()` then runs `self.forward(self.cache_data)` with the cached GPU
batch. The fix (2c81b17, referenced in the thread) moves `model2` to the model's device (`.to(self.device)`);
here the move is applied to the returned `model2`.
Stand-in: MultKAN / KANLayer reduced to a silu-base + linear-coefficient layer, `forward` caching its input,
and `prune` -> `prune_node` keeping every node (node scoring left out).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import copy
import torch
from torch import nn
from torch.nn import functional as F

class KANLayer(nn.Module):
    def __init__(self, in_dim=3, out_dim=2, num=5, k=3):
        super().__init__()
        self.in_dim, self.out_dim = in_dim, out_dim
        self.grid = nn.Parameter(torch.linspace(-1, 1, num + 1)).requires_grad_(False)
        self.coef = nn.Parameter(torch.randn(in_dim, out_dim, num + k) * 0.1)
        self.scale_base = nn.Parameter(torch.ones(in_dim, out_dim) / in_dim ** 0.5)
        self.scale_sp = nn.Parameter(torch.ones(in_dim, out_dim) / in_dim ** 0.5)

    def forward(self, x):
        base = F.silu(x)
        spline = x.unsqueeze(-1) * self.coef.sum(-1).unsqueeze(0)
        y = self.scale_base.unsqueeze(0) * base.unsqueeze(-1) + self.scale_sp.unsqueeze(0) * spline
        return y.sum(dim=1)

class MultKAN(nn.Module):
    def __init__(self, width=None, grid=3, k=3, seed=1, save_act=True):
        super().__init__()
        torch.manual_seed(seed)
        self.width = width
        self.grid, self.k = grid, k
        self.depth = len(width) - 1
        self.save_act = save_act
        self.act_fun = nn.ModuleList([KANLayer(width[l], width[l + 1], num=grid, k=k) for l in range(self.depth)])
        self.node_bias = nn.ParameterList([nn.Parameter(torch.zeros(width[l + 1])).requires_grad_(False) for l in range(self.depth)])
        self.node_scale = nn.ParameterList([nn.Parameter(torch.ones(width[l + 1])).requires_grad_(False) for l in range(self.depth)])
        self.cache_data = None
        self.acts = None

    def forward(self, x):
        if self.save_act:
            self.cache_data = x
            self.acts = [x]
        for l in range(self.depth):
            x = self.act_fun[l](x)
            x = self.node_scale[l] * x + self.node_bias[l]
            if self.save_act:
                self.acts.append(x.detach())
        return x

    def get_act(self, x=None):
        self.forward(x if x is not None else self.cache_data)

    def prune_node(self, threshold=1e-2, mode="auto", active_neurons_id=None, log_history=True):
        model2 = MultKAN(copy.deepcopy(self.width), grid=self.grid, k=self.k)
        model2.load_state_dict(self.state_dict())
        return model2

    def prune(self, node_th=1e-2, edge_th=3e-2):
        if self.acts == None:
            self.get_act()
        cache_data = self.cache_data
        self = self.prune_node(node_th, log_history=False)
        self.cache_data = cache_data
        self.forward(self.cache_data)
        return self

KAN = MultKAN
device = torch.device("cuda:0")
model = KAN(width=[2, 5, 1], grid=5, k=3, seed=0).to(device)
dataset = {"train_input": torch.rand(1000, 2, device=device) * 2 - 1,
           "train_label": torch.randn(1000, 1, device=device)}
model(dataset["train_input"])          # as after model.fit(dataset, ...): activations cached on cuda:0
'''
CELL = '''
model = model.prune()
pred = model(dataset["train_input"])
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        return model2\n",
                  "        return model2.to(next(self.parameters()).device)\n")
CLEAN = False
