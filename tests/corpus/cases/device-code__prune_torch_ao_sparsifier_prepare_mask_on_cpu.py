"""torch.ao.sparsity WeightNormSparsifier.prepare on a GPU model: the FakeSparsity masks are made on the CPU.

Source: https://github.com/pytorch/pytorch/pull/66412
"[sparsity] Fix GPU training for sparsity": "The GPU training was not supported in the sparsifier.
The reason was that when the sparsifier was created the masks would default to the CPU. Attaching a
GPU model to the sparsifier would throw an error. The solution is to create the masks on the same
device as the weight." `BaseSparsifier._prepare` built each mask with `torch.ones(module.weight.shape)`
and registered `FakeSparsity(mask)` (whose forward is `mask * weight`) on the cuda layer.
Stand-in: FakeSparsity / BaseSparsifier / WeightNormSparsifier (torch 1.10 era `prepare(model, config)`
with `fqn` groups), reduced to prepare; the parametrization is the real torch.nn.utils.parametrize one.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import copy
import torch
from torch import nn
from torch.nn.utils import parametrize

class FakeSparsity(nn.Module):
    def __init__(self, mask):
        super().__init__()
        self.register_buffer('mask', mask)

    def forward(self, x):
        assert self.mask.shape == x.shape
        return self.mask * x

def fqn_to_module(model, path):
    for name in path.split('.'):
        model = getattr(model, name, None)
    return model

class BaseSparsifier:
    def __init__(self, defaults):
        self.defaults = defaults
        self.module_groups = []

    def prepare(self, model, config):
        self.model = model
        self.config = config
        for module_config in self.config:
            local_args = copy.deepcopy(self.defaults)
            local_args.update(module_config)
            local_args['module'] = fqn_to_module(model, local_args['fqn'])
            self.module_groups.append(local_args)
        self._prepare()

    def _prepare(self, *args, **kwargs):
        for config in self.module_groups:
            module = config['module']
            param = config.get('parametrization', FakeSparsity)
            mask = config.get('mask', torch.ones(module.weight.shape))
            parametrize.register_parametrization(module, 'weight', param(mask))

class WeightNormSparsifier(BaseSparsifier):
    def __init__(self, sparsity_level=0.5, sparse_block_shape=(1, 4), zeros_per_block=None):
        if zeros_per_block is None:
            zeros_per_block = sparse_block_shape[0] * sparse_block_shape[1]
        super().__init__(defaults={'sparsity_level': sparsity_level,
                                   'sparse_block_shape': sparse_block_shape,
                                   'zeros_per_block': zeros_per_block})

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear1 = nn.Linear(64, 128)
        self.relu = nn.ReLU()
        self.linear2 = nn.Linear(128, 10)

    def forward(self, x):
        return self.linear2(self.relu(self.linear1(x)))

device = torch.device("cuda:0")
model = Model().to(device)
sparsifier = WeightNormSparsifier(sparsity_level=0.5)
config = [{'fqn': 'linear1'}, {'fqn': 'linear2'}]
x = torch.randn(32, 64, device=device)
'''
CELL = '''
sparsifier.prepare(model, config)
out = model(x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["sparsifier"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("mask = config.get('mask', torch.ones(module.weight.shape))",
                  "mask = config.get('mask', torch.ones(module.weight.shape, device=module.weight.device))")
CLEAN = False
