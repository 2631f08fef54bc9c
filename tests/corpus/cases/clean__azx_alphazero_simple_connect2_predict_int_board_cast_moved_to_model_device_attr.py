"""Look-alike: AlphaZeroSimple's `Connect2Model.predict` takes the integer numpy board from the MCTS, casts it and moves it to the device the model stored on itself, and hands the outputs back on the CPU.

Source: https://github.com/JoshVarty/AlphaZeroSimple/blob/master/model.py
`Connect2Model.__init__(board_size, action_size, device)` keeps `self.device = device` and calls
`self.to(device)`; main.py passes `torch.device('cuda' if torch.cuda.is_available() else 'cpu')`. During
the tree search, `MCTS.run` calls `model.predict(canonical_board)` with the game's int64 board
(`np.zeros((columns,), dtype=np.int)` with ±1 stones); `predict` does
`torch.FloatTensor(board.astype(np.float32)).to(self.device)`, `board.view(1, self.size)`, runs the
forward under `torch.no_grad()` and returns `pi.data.cpu()...[0], v.data.cpu()...[0]`. A plain
`torch.device` attribute on the module and CPU outputs for numpy-based search: both deliberate.
Stand-ins: `Connect2Game` reduced to its board helpers, a few expansions of the search, and the outputs
kept as CPU tensors (the repo ends with `.numpy()`); device `cuda:0`, what `'cuda'` is on a one-GPU box.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class Connect2Game:
    def __init__(self):
        self.columns = 4
    def get_init_board(self):
        return np.zeros((self.columns,), dtype=np.int64)
    def get_board_size(self):
        return self.columns
    def get_action_size(self):
        return self.columns
    def get_next_state(self, board, player, action):
        b = np.copy(board)
        b[action] = player
        return (b, -player)
    def get_canonical_board(self, board, player):
        return player * board

class Connect2Model(nn.Module):
    def __init__(self, board_size, action_size, device):
        super(Connect2Model, self).__init__()
        self.device = device
        self.size = board_size
        self.action_size = action_size
        self.fc1 = nn.Linear(in_features=self.size, out_features=16)
        self.fc2 = nn.Linear(in_features=16, out_features=16)
        self.action_head = nn.Linear(in_features=16, out_features=self.action_size)
        self.value_head = nn.Linear(in_features=16, out_features=1)
        self.to(device)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        action_logits = self.action_head(x)
        value_logit = self.value_head(x)
        return F.softmax(action_logits, dim=1), torch.tanh(value_logit)

    def predict(self, board):
        board = torch.FloatTensor(board.astype(np.float32)).to(self.device)
        board = board.view(1, self.size)
        self.eval()
        with torch.no_grad():
            pi, v = self.forward(board)
        return pi.data.cpu()[0], v.data.cpu()[0]

device = torch.device('cuda:0')
game = Connect2Game()
board_size = game.get_board_size()
action_size = game.get_action_size()
model = Connect2Model(board_size, action_size, device)
state = game.get_init_board()
'''
CELL = '''
# MCTS.run: expand the root, then one child per legal move, from the opponent's point of view
action_probs, value = model.predict(state)
children = []
for action in range(action_size):
    next_state, next_player = game.get_next_state(state, player=1, action=action)
    next_state = game.get_canonical_board(next_state, player=-1)
    children.append(model.predict(next_state))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
