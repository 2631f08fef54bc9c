"""kornia RandomSolarize on a CUDA batch: the sampled thresholds and additions stay on the CPU.

Source: https://github.com/kornia/kornia/issues/622
`augs.RandomSolarize(0.5, 0.1)(torch.randn(64, 3, 32, 32).to('cuda:0'))` failed in
`kornia/enhance/adjust.py` `solarize`, `input = input + additions`, with "Expected all tensors to
be on the same device, but found at least two devices, cuda:0 and cpu!": the augmentation's
parameter generator draws `thresholds` and `additions` on the CPU and never moves them to the
input's device (the maintainers' fix generates/moves the parameters on the input's device).
Stand-in: the parameter generator and `solarize` kept, kornia's augmentation base class dropped
(p=1: every sample is transformed).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

def solarize(input, thresholds=0.5, additions=None):
    if additions is not None:
        additions = additions.clamp(-0.5, 0.5)
        input = input + additions
        input = input.clamp(0.0, 1.0)
    return torch.where(input < thresholds, input, 1.0 - input)

class RandomSolarize(nn.Module):
    def __init__(self, thresholds=0.1, additions=0.1, p=1.0):
        super().__init__()
        self.thresholds, self.additions, self.p = thresholds, additions, p

    def generate_parameters(self, batch_shape):
        batch_size = batch_shape[0]
        thresholds = torch.empty(batch_size).uniform_(0.5 - self.thresholds, 0.5 + self.thresholds)
        additions = torch.empty(batch_size).uniform_(-self.additions, self.additions)
        return dict(thresholds_factor=thresholds, additions_factor=additions)

    def forward(self, input):
        params = self.generate_parameters(input.shape)
        thresholds = params["thresholds_factor"].view(-1, 1, 1, 1)
        additions = params["additions_factor"].view(-1, 1, 1, 1)
        return solarize(input, thresholds, additions)

augmentor = RandomSolarize(0.5, 0.1)
x = torch.randn([64, 3, 32, 32]).to("cuda:0")
'''
CELL = '''
out = augmentor(x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["additions"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        params = self.generate_parameters(input.shape)\n",
    "        params = {k: v.to(input.device) for k, v in self.generate_parameters(input.shape).items()}\n",
)
CLEAN = False
