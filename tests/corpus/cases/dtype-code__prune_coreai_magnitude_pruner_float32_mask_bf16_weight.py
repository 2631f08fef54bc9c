"""coreai-optimization MagnitudePruner on a bfloat16 Linear: the float32 mask buffer turns the pruned weight back into float32.

Source: https://github.com/apple/coreai-optimization/pull/1
"`MagnitudePruner` crashes on float16 and bfloat16 models. The pruning mask buffer is created as float32
and the forward pass only re-cast it to the weight device, never the dtype. Masking a half-precision
weight then promotes the result back to float32, so the layer runs with a float32 weight and the next
forward fails: expected m1 and m2 to have the same dtype". The fix casts the mask to the weight dtype as
well as its device in `PruneImplBase.forward`.
Stand-in: PruneImplBase / _MagnitudePruneImpl (unstructured scheme) and MagnitudePruner reduced to
`prepare(example_inputs)`, which registers the parametrization (torch.nn.utils.parametrize) on every
Linear weight and runs the example inputs through the prepared model.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn
from torch.nn.utils import parametrize

class PruneImplBase(nn.Module):
    def __init__(self, target_sparsity, **kwargs):
        super().__init__()
        self._target_sparsity = target_sparsity
        self._sparsity = target_sparsity
        self._dirty = True
        self.register_buffer("mask", torch.empty(0))

    @staticmethod
    def compute_mask(weight, sparsity):
        raise NotImplementedError

    def forward(self, weight):
        if self._dirty:
            new_mask = self.compute_mask(weight, self._sparsity)
            if self.mask.device != weight.device:
                self.mask = self.mask.to(device=weight.device)
            if self.mask.shape != new_mask.shape:
                self.mask.resize_(new_mask.shape)
            self.mask.copy_(new_mask)
            self._dirty = False
        return weight * self.mask

class _MagnitudePruneImpl(PruneImplBase):
    @staticmethod
    def compute_mask(weight, sparsity):
        k = int(weight.numel() * sparsity)
        scores = weight.detach().abs().float().flatten()
        threshold = torch.kthvalue(scores, k).values
        return (weight.detach().abs().float() > threshold).to(weight.dtype).reshape(weight.shape)

class MagnitudePrunerConfig:
    def __init__(self, target_sparsity=0.5):
        self.target_sparsity = target_sparsity

class MagnitudePruner:
    def __init__(self, model, config=None):
        self._model = model
        self._config = config if config is not None else MagnitudePrunerConfig()
        self._prepared = False

    def prepare(self, example_inputs):
        if self._prepared:
            raise RuntimeError("Model has already been prepared. Cannot re-prepare a prepared model.")
        for name, module in self._model.named_modules():
            if isinstance(module, nn.Linear):
                parametrize.register_parametrization(
                    module, "weight", _MagnitudePruneImpl(target_sparsity=self._config.target_sparsity), unsafe=True)
        self._prepared = True
        with torch.no_grad():
            self._model(*example_inputs)
        return self._model

model = nn.Sequential(nn.Linear(100, 50), nn.ReLU(), nn.Linear(50, 10)).to(torch.bfloat16)
pruner = MagnitudePruner(model, MagnitudePrunerConfig(target_sparsity=0.5))
example_inputs = (torch.randn(1, 100, dtype=torch.bfloat16),)
'''
CELL = '''
model = pruner.prepare(example_inputs)
sparsity = (model[0].weight == 0).float().mean()
'''
EXPECT_ERROR = "same dtype"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""            if self.mask.device != weight.device:
                self.mask = self.mask.to(device=weight.device)""",
                  """            if self.mask.device != weight.device or self.mask.dtype != weight.dtype:
                self.mask = self.mask.to(device=weight.device, dtype=weight.dtype)""")
CLEAN = False
