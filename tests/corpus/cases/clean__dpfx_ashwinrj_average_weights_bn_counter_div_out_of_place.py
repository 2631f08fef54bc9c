"""Look-alike: Federated-Learning-PyTorch's `average_weights` sums GPU state dicts in place, then divides out of place.

Source: https://github.com/AshwinRJ/Federated-Learning-PyTorch/blob/master/src/utils.py
`average_weights(w)` deep-copies the first client's state dict, adds the others with `+=` and then
rebinds `w_avg[key] = torch.div(w_avg[key], len(w))`. With a BatchNorm model the int64
`num_batches_tracked` entries are summed as integers (`+=` of two Long tensors) and the division
returns a new float tensor instead of writing into the Long one; `global_model.load_state_dict`
copies it back into the int64 buffer. All state dicts live on the device of the local models.
Stand-in: a small CNN with BatchNorm (the repo's CNNCifar plus a BN layer), three local copies that
ran a forward pass in train mode; "meta" plays the GPU.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import copy
import torch
from torch import nn
import torch.nn.functional as F

device = torch.device("meta")   # 'cuda' with --gpu

def average_weights(w):
    """
    Returns the average of the weights.
    """
    w_avg = copy.deepcopy(w[0])
    for key in w_avg.keys():
        for i in range(1, len(w)):
            w_avg[key] += w[i][key]
        w_avg[key] = torch.div(w_avg[key], len(w))
    return w_avg

class CNNCifar(nn.Module):
    def __init__(self, num_classes=10):
        super(CNNCifar, self).__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.bn1 = nn.BatchNorm2d(6)
        self.pool = nn.MaxPool2d(2, 2)
        self.fc1 = nn.Linear(6 * 14 * 14, num_classes)

    def forward(self, x):
        x = self.pool(F.relu(self.bn1(self.conv1(x))))
        x = x.view(-1, 6 * 14 * 14)
        return F.log_softmax(self.fc1(x), dim=1)

global_model = CNNCifar().to(device)
global_model.train()
local_weights = []
for idx in range(3):
    local_model = copy.deepcopy(global_model)
    with torch.no_grad():
        local_model(torch.randn(4, 3, 32, 32, device=device))
    local_weights.append(copy.deepcopy(local_model.state_dict()))
'''
CELL = '''
# update global weights
global_weights = average_weights(local_weights)
global_model.load_state_dict(global_weights)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
