"""AlphaZero Connect4 (plkmo): training on a CPU-only machine feeds the int64 board planes from `board_data` straight into the conv net.

Source: https://github.com/plkmo/AlphaZero_Connect4/issues/3
"Incorrect scalar weight type in conv2d_forward call": on Windows without CUDA, after the first round
of self-play the training step crashed in `ConvBlock.forward` (`self.conv1(s)`). `board_data.__getitem__`
returns `np.int64(self.X[idx].transpose(2,0,1))`, so the DataLoader yields a LongTensor `state`;
`train_c4.train` only cast it with `state.cuda().float()` inside `if cuda:`, so on a CPU the int64 board
reached the float conv weights. The maintainer's fix (commit "fixed minor error while training with
CPU") casts unconditionally: `state, policy, value = state.float(), policy.float(), value.float()`.
Stand-ins: the repo's `board_data`, `ConvBlock`/`ResBlock`/`OutBlock`/`ConnectNet` (2 residual blocks
instead of 19, fewer channels) and `AlphaLoss`; a tiny self-play dataset of (board, visit policy, z).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import Dataset, DataLoader

class board_data(Dataset):
    def __init__(self, dataset):  # dataset = np.array of (s, p, v)
        self.X = dataset[:, 0]
        self.y_p, self.y_v = dataset[:, 1], dataset[:, 2]

    def __len__(self):
        return len(self.X)

    def __getitem__(self, idx):
        return np.int64(self.X[idx].transpose(2, 0, 1)), self.y_p[idx], self.y_v[idx]

class ConvBlock(nn.Module):
    def __init__(self, planes=32):
        super().__init__()
        self.action_size = 7
        self.conv1 = nn.Conv2d(3, planes, 3, stride=1, padding=1)
        self.bn1 = nn.BatchNorm2d(planes)

    def forward(self, s):
        s = s.view(-1, 3, 6, 7)  # batch_size x channels x board_x x board_y
        s = F.relu(self.bn1(self.conv1(s)))
        return s

class ResBlock(nn.Module):
    def __init__(self, inplanes=32, planes=32):
        super().__init__()
        self.conv1 = nn.Conv2d(inplanes, planes, kernel_size=3, stride=1, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, kernel_size=3, stride=1, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)

    def forward(self, x):
        residual = x
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out += residual
        return F.relu(out)

class OutBlock(nn.Module):
    def __init__(self, planes=32):
        super().__init__()
        self.conv = nn.Conv2d(planes, 3, kernel_size=1)  # value head
        self.bn = nn.BatchNorm2d(3)
        self.fc1 = nn.Linear(3 * 6 * 7, 32)
        self.fc2 = nn.Linear(32, 1)
        self.conv1 = nn.Conv2d(planes, 32, kernel_size=1)  # policy head
        self.bn1 = nn.BatchNorm2d(32)
        self.logsoftmax = nn.LogSoftmax(dim=1)
        self.fc = nn.Linear(6 * 7 * 32, 7)

    def forward(self, s):
        v = F.relu(self.bn(self.conv(s)))
        v = v.view(-1, 3 * 6 * 7)
        v = F.relu(self.fc1(v))
        v = torch.tanh(self.fc2(v))
        p = F.relu(self.bn1(self.conv1(s)))
        p = p.view(-1, 6 * 7 * 32)
        p = self.fc(p)
        p = self.logsoftmax(p).exp()
        return p, v

class ConnectNet(nn.Module):
    def __init__(self, n_blocks=2):
        super().__init__()
        self.n_blocks = n_blocks
        self.conv = ConvBlock()
        for block in range(n_blocks):
            setattr(self, "res_%i" % block, ResBlock())
        self.outblock = OutBlock()

    def forward(self, s):
        s = self.conv(s)
        for block in range(self.n_blocks):
            s = getattr(self, "res_%i" % block)(s)
        return self.outblock(s)

class AlphaLoss(torch.nn.Module):
    def forward(self, y_value, value, y_policy, policy):
        value_error = (value - y_value) ** 2
        policy_error = torch.sum((-policy * (1e-8 + y_policy.float()).float().log()), 1)
        total_error = (value_error.view(-1).float() + policy_error).mean()
        return total_error

# self-play output: encoded board (6x7x3 int planes), MCTS visit distribution, game result
rng = np.random.default_rng(0)
dataset = np.empty((16, 3), dtype=object)
for i in range(16):
    dataset[i, 0] = rng.integers(0, 2, size=(6, 7, 3))
    visits = rng.random(7)
    dataset[i, 1] = visits / visits.sum()
    dataset[i, 2] = int(rng.choice([-1, 0, 1]))

cuda = torch.cuda.is_available()          # False on this machine
net = ConnectNet()
net.train()
criterion = AlphaLoss()
optimizer = torch.optim.Adam(net.parameters(), lr=0.001, betas=(0.8, 0.999))
train_set = board_data(dataset)
train_loader = DataLoader(train_set, batch_size=8, shuffle=True, num_workers=0, pin_memory=False)
state, policy, value = next(iter(train_loader))
if cuda:
    state, policy, value = state.cuda().float(), policy.float().cuda(), value.cuda().float()
'''
CELL = '''
policy_pred, value_pred = net(state)
loss = criterion(value_pred[:, 0], value, policy_pred, policy)
loss.backward()
optimizer.step()
optimizer.zero_grad()
'''
EXPECT_ERROR = ("should be the same", "expected scalar type", "Input type")
CULPRITS = ["state"]
FIX = "namespace"
REFERENCE_FIX = '''
state, policy, value = state.float(), policy.float(), value.float()
'''
REFERENCE_EDIT = None
CLEAN = False
