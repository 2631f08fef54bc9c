"""Look-alike: a kornia augmentation left on the CPU, applied to a cuda batch; its parameters are sampled on the CPU and moved in `apply_transform`.

Source: https://github.com/kornia/kornia/issues/4151
kornia's maintainers: "`aug(x_gpu)` without a preceding `aug.to(gpu)` is a documented, supported call
pattern — `_BasicAugmentationBase` pins the RNG to CPU on purpose ... 'By default, the parameters will
be generated on CPU in float32.'" The sampled parameters stay on the CPU (the module keeps the last
ones in `_params`) and each transform moves what it needs to the input's device. Two devices on
purpose, nothing to report. Stand-in: `RandomSolarize` reduced to parameter sampling and
`apply_transform`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class RandomSolarize(nn.Module):
    def __init__(self, thresholds=0.1, additions=0.1):
        super().__init__()
        self.thresholds, self.additions = thresholds, additions
        self._params = None

    def forward_parameters(self, batch_shape):
        # parameters are generated on the CPU in float32, whatever the input's device
        b = batch_shape[0]
        return {"thresholds_factor": torch.empty(b).uniform_(0.5 - self.thresholds, 0.5 + self.thresholds),
                "additions_factor": torch.empty(b).uniform_(-self.additions, self.additions)}

    def apply_transform(self, input, params):
        thresholds = params["thresholds_factor"].to(input.device).view(-1, 1, 1, 1)
        additions = params["additions_factor"].to(input.device).view(-1, 1, 1, 1)
        input = (input + additions).clamp(0.0, 1.0)
        return torch.where(input < thresholds, input, 1.0 - input)

    def forward(self, input):
        self._params = self.forward_parameters(input.shape)
        return self.apply_transform(input, self._params)

augmentor = RandomSolarize(0.5, 0.1)
x = torch.rand(64, 3, 32, 32).to("cuda:0")
'''
CELL = '''
out = augmentor(x)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
