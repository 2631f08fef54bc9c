"""Look-alike: Pyro's `AutoRegressiveNN` keeps its MADE masks in a plain Python list of CPU tensors, but the layers use buffer copies that follow `.to()`.

Source: https://github.com/pyro-ppl/pyro/blob/dev/pyro/nn/auto_reg_nn.py
`ConditionalAutoRegressiveNN.__init__` stores `self.masks, self.mask_skip = create_mask(...)` as
plain attributes (a list of CPU tensors and a CPU tensor that `Module.to()` never sees), which looks
like the classic "tensor attribute left behind". They are only construction inputs: each
`MaskedLinear` registers its own `mask` buffer (`self.register_buffer("mask", mask.data)`) and the
permutation is a buffer too, so after `arn.to("cuda:0")` the forward pass runs on the GPU. Stand-in:
`sample_mask_indices`, `create_mask`, `MaskedLinear` and the forward as in pyro; the user's IAF-style
call `mean, log_scale = arn(x)`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
from torch.nn import functional as F

def sample_mask_indices(input_dim, hidden_dim, simple=True):
    indices = torch.linspace(1, input_dim, steps=hidden_dim)
    return torch.round(indices)

def create_mask(input_dim, context_dim, hidden_dims, permutation, output_dim_multiplier):
    var_index = torch.empty(permutation.shape, dtype=torch.get_default_dtype())
    var_index[permutation] = torch.arange(input_dim, dtype=torch.get_default_dtype())
    input_indices = torch.cat((torch.zeros(context_dim), 1 + var_index))
    hidden_indices = [sample_mask_indices(input_dim - 1, h) for h in hidden_dims]
    output_indices = (var_index + 1).repeat(output_dim_multiplier)
    mask_skip = (output_indices.unsqueeze(-1) > input_indices.unsqueeze(0)).type_as(var_index)
    masks = [(hidden_indices[0].unsqueeze(-1) >= input_indices.unsqueeze(0)).type_as(var_index)]
    for i in range(1, len(hidden_dims)):
        masks.append((hidden_indices[i].unsqueeze(-1) >= hidden_indices[i - 1].unsqueeze(0)).type_as(var_index))
    masks.append((output_indices.unsqueeze(-1) > hidden_indices[-1].unsqueeze(0)).type_as(var_index))
    return masks, mask_skip

class MaskedLinear(nn.Linear):
    def __init__(self, in_features, out_features, mask, bias=True):
        super().__init__(in_features, out_features, bias)
        self.register_buffer("mask", mask.data)
    def forward(self, _input):
        masked_weight = self.weight * self.mask
        return F.linear(_input, masked_weight, self.bias)

class AutoRegressiveNN(nn.Module):
    """Stand-in for pyro.nn.AutoRegressiveNN (ConditionalAutoRegressiveNN with context_dim=0)."""
    def __init__(self, input_dim, hidden_dims, param_dims=[1, 1], permutation=None,
                 skip_connections=False, nonlinearity=nn.ReLU()):
        super().__init__()
        self.input_dim = input_dim
        self.context_dim = 0
        self.hidden_dims = hidden_dims
        self.param_dims = param_dims
        self.count_params = len(param_dims)
        self.output_multiplier = sum(param_dims)
        self.all_ones = all(p == 1 for p in param_dims)
        if permutation is None:
            P = torch.randperm(input_dim, device="cpu")
        else:
            P = permutation.type(dtype=torch.int64)
        self.register_buffer("permutation", P)
        self.masks, self.mask_skip = create_mask(
            input_dim=input_dim, context_dim=0, hidden_dims=hidden_dims,
            permutation=self.permutation, output_dim_multiplier=self.output_multiplier,
        )
        layers = [MaskedLinear(input_dim, hidden_dims[0], self.masks[0])]
        for i in range(1, len(hidden_dims)):
            layers.append(MaskedLinear(hidden_dims[i - 1], hidden_dims[i], self.masks[i]))
        layers.append(MaskedLinear(hidden_dims[-1], input_dim * self.output_multiplier, self.masks[-1]))
        self.layers = nn.ModuleList(layers)
        self.skip_layer = None
        if skip_connections:
            self.skip_layer = MaskedLinear(input_dim, input_dim * self.output_multiplier,
                                           self.mask_skip, bias=False)
        self.f = nonlinearity

    def forward(self, x):
        h = x
        for layer in self.layers[:-1]:
            h = self.f(layer(h))
        h = self.layers[-1](h)
        if self.skip_layer is not None:
            h = h + self.skip_layer(x)
        h = h.reshape(list(x.size()[:-1]) + [self.output_multiplier, self.input_dim])
        return torch.unbind(h, dim=-2)

device = torch.device("cuda:0")
arn = AutoRegressiveNN(10, [40, 40], param_dims=[1, 1], skip_connections=True).to(device)
x = torch.randn(100, 10).to(device)
'''
CELL = '''
mean, log_scale = arn(x)
z = mean + torch.exp(log_scale) * x
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
