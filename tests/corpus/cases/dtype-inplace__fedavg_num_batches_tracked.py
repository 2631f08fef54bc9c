"""Federated averaging with `+=` over every state-dict entry hits BatchNorm's int64 counter.

Source: https://github.com/LuminLiu/HierFL/issues/1
`w_avg[k] += torch.mul(w[i][k], s_num[i]/temp_sample_num)` raised "result type Float can't be
cast to the desired output type Long" with CIFAR-10 (a model with BatchNorm): the in-place add
cannot write a float weighted sum into `num_batches_tracked` (int64). The maintainer's fix:
`w_avg[k] = w_avg[k] + torch.mul(...)` (out of place).
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch
import torch.nn as nn

def average_weights(w, s_num):
    total = sum(s_num)
    w_avg = {k: torch.zeros_like(v) for k, v in w[0].items()}
    for k in w_avg.keys():
        for i in range(len(w)):
            w_avg[k] += torch.mul(w[i][k], s_num[i] / total)
    return w_avg

def make_client_model():
    return nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8), nn.ReLU(), nn.Flatten(),
                         nn.LazyLinear(10))

clients = [make_client_model() for _ in range(3)]
for c in clients:
    c(torch.randn(2, 3, 8, 8))
received_dict = [c.state_dict() for c in clients]
sample_nums = [500, 300, 200]
'''
CELL = '''
shared_state_dict = average_weights(received_dict, sample_nums)
'''
EXPECT_ERROR = "result type Float can't be cast to the desired output type Long"
CULPRITS = ["average_weights"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "w_avg[k] += torch.mul(w[i][k], s_num[i] / total)",
    "w_avg[k] = w_avg[k] + torch.mul(w[i][k], s_num[i] / total)",
)
CLEAN = False
