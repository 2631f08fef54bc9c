"""Look-alike: HierFL's fixed averaging returns a float `num_batches_tracked`, loaded back into the int64 buffer.

Source: https://github.com/LuminLiu/HierFL/issues/1
The maintainer's fix for "result type Float can't be cast to the desired output type Long" makes
the weighted sum out of place (`w_avg[k] = w_avg[k] + torch.mul(...)`), so the averaged state dict
holds a float tensor for BatchNorm's `num_batches_tracked`. Loading it with `load_state_dict`
copies it into the model's int64 buffer (copy_ casts), so the float/long pair is harmless: no
finding expected. CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import copy
import torch
import torch.nn as nn

def average_weights(w, s_num):
    total_sample_num = sum(s_num)
    temp_sample_num = s_num[0]
    w_avg = copy.deepcopy(w[0])
    for k in w_avg.keys():
        for i in range(1, len(w)):
            w_avg[k] = w_avg[k] + torch.mul(w[i][k], s_num[i] / temp_sample_num)
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
    c(torch.randn(4, 3, 8, 8))
received_dict = [c.state_dict() for c in clients]
sample_nums = [300, 200]
edge_model = CNNCifar()
'''
CELL = '''
shared_state_dict = average_weights(w=received_dict, s_num=sample_nums)
edge_model.load_state_dict(shared_state_dict)
out = edge_model(torch.randn(2, 3, 8, 8))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
