"""alpha-zero-general Othello (PyTorch): the int board is cast to float64 in numpy and wrapped in `torch.FloatTensor` for the float32 net.

Source: https://github.com/suragnair/alpha-zero-general/blob/master/othello/pytorch/NNet.py
`NNetWrapper.predict(board)` does `board = torch.FloatTensor(board.astype(np.float64))`, then
`board = board.view(1, self.board_x, self.board_y)` and runs the OthelloNNet; `train()` builds
`torch.FloatTensor(np.array(boards).astype(np.float64))` and the targets the same way. Look-alike:
an explicit float64 cast right before a float32 network, harmless because `torch.FloatTensor`
copies into float32. Stand-ins: a two-conv OthelloNNet with policy/value heads, an 8x8 board.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

class OthelloNNet(nn.Module):
    def __init__(self, board_x, board_y, action_size, num_channels=32):
        super().__init__()
        self.board_x, self.board_y, self.num_channels = board_x, board_y, num_channels
        self.conv1 = nn.Conv2d(1, num_channels, 3, stride=1, padding=1)
        self.conv2 = nn.Conv2d(num_channels, num_channels, 3, stride=1, padding=1)
        self.bn1 = nn.BatchNorm2d(num_channels)
        self.bn2 = nn.BatchNorm2d(num_channels)
        self.fc1 = nn.Linear(num_channels * board_x * board_y, 64)
        self.fc2 = nn.Linear(64, action_size)
        self.fc3 = nn.Linear(64, 1)

    def forward(self, s):
        s = s.view(-1, 1, self.board_x, self.board_y)
        s = F.relu(self.bn1(self.conv1(s)))
        s = F.relu(self.bn2(self.conv2(s)))
        s = F.relu(self.fc1(s.view(-1, self.num_channels * self.board_x * self.board_y)))
        return F.log_softmax(self.fc2(s), dim=1), torch.tanh(self.fc3(s))

class NNetWrapper:
    def __init__(self, n=8):
        self.board_x, self.board_y, self.action_size = n, n, n * n + 1
        self.nnet = OthelloNNet(n, n, self.action_size)

    def predict(self, board):
        board = torch.FloatTensor(board.astype(np.float64))
        board = board.view(1, self.board_x, self.board_y)
        self.nnet.eval()
        with torch.no_grad():
            pi, v = self.nnet(board)
        return torch.exp(pi).data.cpu().numpy()[0], v.data.cpu().numpy()[0]

nnet = NNetWrapper(8)
board = np.zeros((8, 8), dtype=int)
board[3, 3] = board[4, 4] = 1
board[3, 4] = board[4, 3] = -1
'''
CELL = '''
pi, v = nnet.predict(board)
print(pi.shape, v)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
