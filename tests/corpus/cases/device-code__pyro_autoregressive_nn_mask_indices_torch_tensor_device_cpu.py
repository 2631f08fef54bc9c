"""Pyro AutoRegressiveNN under `torch.set_default_device('cuda')`: its hidden mask indices are built on the CPU.

Source: https://github.com/pyro-ppl/pyro/pull/3344
"Update auto_reg_nn.sample_mask_indices() to be default device-aware": with
`torch.set_default_device('cuda')`, `AutoRegressiveNN(10, [50], param_dims=[1])` fails while being
built with "Expected all tensors to be on the same device, but found at least two devices, cuda:0
and cpu!". `sample_mask_indices` makes `torch.linspace(..., device="cpu").to(torch.Tensor().device)`,
and `torch.Tensor()` is a CPU FloatTensor whatever the default device, so the hidden-layer indices
stay on the CPU while `create_mask`'s input indices follow the default device. The PR replaces
`torch.Tensor().device` by the default device. Stand-in: pyro's `sample_mask_indices`, `create_mask`
and the constructor of AutoRegressiveNN (MaskedLinear layers, no forward); the inverse permutation
is written with `index_put_`, MaskedLinear initialised with `randn` instead of nn.Linear's init.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

def sample_mask_indices(input_dim, hidden_dim, simple=True):
    indices = torch.linspace(1, input_dim, steps=hidden_dim, device="cpu").to(torch.Tensor().device)
    if simple:
        return torch.round(indices)
    ints = indices.floor()
    ints += torch.bernoulli(indices - ints)
    return ints

def create_mask(input_dim, context_dim, hidden_dims, permutation, output_dim_multiplier):
    var_index = torch.empty(permutation.shape, dtype=torch.get_default_dtype())
    var_index.index_put_((permutation,), torch.arange(input_dim, dtype=torch.get_default_dtype()))
    input_indices = torch.cat((torch.zeros(context_dim), 1 + var_index))
    if context_dim > 0:
        hidden_indices = [sample_mask_indices(input_dim, h) - 1 for h in hidden_dims]
    else:
        hidden_indices = [sample_mask_indices(input_dim - 1, h) for h in hidden_dims]
    output_indices = (var_index + 1).repeat(output_dim_multiplier)
    mask_skip = (output_indices.unsqueeze(-1) > input_indices.unsqueeze(0)).type_as(var_index)
    masks = [(hidden_indices[0].unsqueeze(-1) >= input_indices.unsqueeze(0)).type_as(var_index)]
    for i in range(1, len(hidden_dims)):
        masks.append((hidden_indices[i].unsqueeze(-1) >= hidden_indices[i - 1].unsqueeze(0)).type_as(var_index))
    masks.append((output_indices.unsqueeze(-1) > hidden_indices[-1].unsqueeze(0)).type_as(var_index))
    return masks, mask_skip

class MaskedLinear(nn.Module):
    def __init__(self, in_features, out_features, mask, bias=True):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_features, in_features) / in_features ** 0.5)
        self.bias = nn.Parameter(torch.zeros(out_features)) if bias else None
        self.register_buffer("mask", mask.detach())

    def forward(self, _input):
        return nn.functional.linear(_input, self.mask * self.weight, self.bias)

class AutoRegressiveNN(nn.Module):
    def __init__(self, input_dim, hidden_dims, param_dims=[1, 1], permutation=None, skip_connections=False,
                 nonlinearity=nn.ReLU()):
        super().__init__()
        self.input_dim, self.count_params = input_dim, len(param_dims)
        self.output_multiplier = sum(param_dims)
        if permutation is None:
            self.permutation = torch.randperm(input_dim, device="cpu").to(torch.Tensor().device)
        else:
            self.permutation = permutation.type(dtype=torch.int64)
        self.masks, self.mask_skip = create_mask(input_dim=input_dim, context_dim=0, hidden_dims=hidden_dims,
                                                 permutation=self.permutation,
                                                 output_dim_multiplier=self.output_multiplier)
        layers = [MaskedLinear(input_dim, hidden_dims[0], self.masks[0])]
        for i in range(1, len(hidden_dims)):
            layers.append(MaskedLinear(hidden_dims[i - 1], hidden_dims[i], self.masks[i]))
        layers.append(MaskedLinear(hidden_dims[-1], input_dim * self.output_multiplier, self.masks[-1]))
        self.layers = nn.ModuleList(layers)
        self.f = nonlinearity

torch.set_default_device('cuda')
x = torch.randn(100, 10)
'''
CELL = '''
arn = AutoRegressiveNN(10, [50], param_dims=[1])
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["hidden_indices"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('indices = torch.linspace(1, input_dim, steps=hidden_dim, device="cpu").to(torch.Tensor().device)',
                  'indices = torch.linspace(1, input_dim, steps=hidden_dim, device="cpu").to(torch.get_default_device())')
CLEAN = False
