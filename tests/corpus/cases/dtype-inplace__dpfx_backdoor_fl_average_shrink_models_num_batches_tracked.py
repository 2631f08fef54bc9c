"""backdoor_federated_learning: `average_shrink_models` adds a float update in place into BatchNorm's int64 counter.

Source: https://github.com/ebagdasa/backdoor_federated_learning/issues/5
Running the image task failed with "RuntimeError: result type Float can't be cast to the desired
output type Long". The server loop accumulates each participant's `data - target_model.state_dict()[name]`
into `weight_accumulator` (zeros_like, so `num_batches_tracked` stays int64), then
`average_shrink_models` scales it by `eta / number_of_total_participants` (float) and calls
`data.add_(update_per_layer)` on every state-dict entry. The reporter's answer: force the type before
adding. Stand-in: `Helper` reduced to the averaging, a small CNN with BatchNorm, two participants.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import copy
import torch
import torch.nn as nn

class SmallResNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(8)
        self.linear = nn.Linear(8, 10)

    def forward(self, x):
        x = torch.relu(self.bn1(self.conv1(x)))
        return self.linear(x.mean((2, 3)))

class Helper:
    def __init__(self, params):
        self.params = params

    def average_shrink_models(self, weight_accumulator, target_model, epoch):
        for name, data in target_model.state_dict().items():
            if self.params.get('tied', False) and name == 'decoder.weight':
                continue
            update_per_layer = weight_accumulator[name] * \\
                (self.params["eta"] / self.params["number_of_total_participants"])
            data.add_(update_per_layer)
        return True

helper = Helper({"eta": 1.0, "number_of_total_participants": 2, "diff_privacy": False})
target_model = SmallResNet()
weight_accumulator = {name: torch.zeros_like(data) for name, data in target_model.state_dict().items()}
for _ in range(2):                       # two participants train a copy of the global model
    model = copy.deepcopy(target_model)
    model.train()
    model(torch.randn(4, 3, 8, 8))
    for name, data in model.state_dict().items():
        weight_accumulator[name].add_(data - target_model.state_dict()[name])
epoch = 1
'''
CELL = '''
helper.average_shrink_models(weight_accumulator=weight_accumulator, target_model=target_model, epoch=epoch)
'''
EXPECT_ERROR = "can't be cast to the desired output type"
CULPRITS = ["helper"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("data.add_(update_per_layer)", "data.add_(update_per_layer.to(data.dtype))")
CLEAN = False
