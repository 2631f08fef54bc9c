"""HierFL edge aggregation: `w_avg[k] += torch.mul(w[i][k], s_num[i]/temp_sample_num)` on BatchNorm's int64 counter.

Source: https://github.com/LuminLiu/HierFL/issues/1
Running `hierfavg.py` on CIFAR-10 failed in `average.py` `average_weights` with "result type Float
can't be cast to the desired output type Long": the state dicts include BatchNorm's
`num_batches_tracked` (int64), and the in-place `+=` of a float-weighted term cannot write a float
result into it. The maintainer's fix: `w_avg[k] = w_avg[k] + torch.mul(w[i][k],
s_num[i]/temp_sample_num)` (out of place). Stand-in: two clients' copies of a small CNN with
BatchNorm; CPU (a dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import copy
import torch
import torch.nn as nn

def average_weights(w, s_num):
    # copy the first client's weights
    total_sample_num = sum(s_num)
    temp_sample_num = s_num[0]
    w_avg = copy.deepcopy(w[0])
    for k in w_avg.keys():  # the nn layer loop
        for i in range(1, len(w)):  # the client loop
            w_avg[k] += torch.mul(w[i][k], s_num[i] / temp_sample_num)
        w_avg[k] = torch.mul(w_avg[k], temp_sample_num / total_sample_num)
    return w_avg

class CNNCifar(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)
        self.bn = nn.BatchNorm2d(8)
        self.fc = nn.Linear(8, 10)

    def forward(self, x):
        return self.fc(torch.relu(self.bn(self.conv(x))).mean((2, 3)))

clients = [CNNCifar() for _ in range(2)]
for c in clients:
    c(torch.randn(4, 3, 8, 8))        # one local step: num_batches_tracked becomes 1
received_dict = [c.state_dict() for c in clients]
sample_nums = [300, 200]
'''
CELL = '''
shared_state_dict = average_weights(w=received_dict, s_num=sample_nums)
'''
EXPECT_ERROR = "can't be cast to the desired output type Long"
CULPRITS = ["received_dict"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "            w_avg[k] += torch.mul(w[i][k], s_num[i] / temp_sample_num)",
    "            w_avg[k] = w_avg[k] + torch.mul(w[i][k], s_num[i] / temp_sample_num)",
)
CLEAN = False
