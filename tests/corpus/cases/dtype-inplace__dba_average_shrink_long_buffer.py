"""Federated backdoor training: the server's in-place model averaging hits the int64 BatchNorm counter.

Source: https://github.com/AI-secure/DBA/issues/1
`average_shrink_models` adds each averaged update to the global model's state dict in place,
`data.add_(update_per_layer)`; MNIST (no BatchNorm) worked, but the CIFAR/Tiny-ImageNet models
have BatchNorm, whose `num_batches_tracked` buffer is int64, and the float update raised "result
type Float can't be cast to the desired output type Long". A commenter's workaround cast the
whole target model to float.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch
from torch import nn

class ResNetTiny(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.fc = nn.Linear(8, 10)

    def forward(self, x):
        return self.fc(torch.relu(self.bn(self.conv(x))).mean((2, 3)))

target_model = ResNetTiny()
local_models = [ResNetTiny() for _ in range(3)]
for m in local_models:
    m(torch.randn(4, 3, 8, 8))   # a local round: BatchNorm statistics and counters move

weight_accumulator = {name: torch.zeros_like(data, dtype=torch.float32)
                      for name, data in target_model.state_dict().items()}
for m in local_models:
    for name, data in m.state_dict().items():
        weight_accumulator[name].add_(data - target_model.state_dict()[name])

def average_shrink_models(weight_accumulator, target_model, eta=0.1, no_models=3):
    for name, data in target_model.state_dict().items():
        update_per_layer = weight_accumulator[name] * (eta / no_models)
        data.add_(update_per_layer)
    return True
'''
CELL = '''
is_updated = average_shrink_models(weight_accumulator, target_model)
'''
EXPECT_ERROR = "result type Float can't be cast to the desired output type Long"
CULPRITS = ["target_model.bn.num_batches_tracked"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("data.add_(update_per_layer)", "data.add_(update_per_layer.to(data.dtype))")
CLEAN = False
