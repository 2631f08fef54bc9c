"""Look-alike: Mahjong-AI's reward predictor gets float64 per-round arrays and integer scores, cast to float32 in `process_reward_data`.

Source: https://github.com/windshadow233/Mahjong-AI/blob/main/dataset/data.py
The Tenhou playback parser yields, per game, a float64 array of round features (a different number
of rounds per game) and an integer final score. `process_reward_data` converts each array with
`torch.from_numpy(f).float()` before `pad_sequence`, and the scores with
`torch.tensor(labels).float().unsqueeze(-1) / 250`, so the GRU and MSELoss in
sl_train/train_reward.py see float32 only. Stand-in: `TenhouDataset` without log files (random
rounds and scores); `process_reward_data` and `RewardPredictor` as in the repository; CPU only.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn
from torch.nn import MSELoss
from torch.optim import Adam
from torch.nn.utils.rnn import pad_sequence

np.random.seed(0); torch.manual_seed(0)

class RewardPredictor(nn.Module):
    def __init__(self, input_dims, hidden_dims, num_layers):
        super(RewardPredictor, self).__init__()
        self.gru = nn.GRU(input_dims, hidden_dims, num_layers, batch_first=True)
        self.fc = nn.Sequential(
            nn.Linear(hidden_dims, 10),
            nn.ReLU(inplace=True),
            nn.Linear(10, 1)
        )

    def forward(self, x):
        out, h_n = self.gru(x)
        return self.fc(out[:, -1, :])

def process_reward_data(one_batch):
    features = []
    labels = []
    for f, lb in one_batch:
        features.append(torch.from_numpy(f).float())
        labels.append(lb)
    features = pad_sequence(features, batch_first=True)
    labels = torch.tensor(labels).float().unsqueeze(-1) / 250
    return features, labels

class TenhouDataset(object):
    """Stand-in: one (rounds x 74 float64 features, final score) pair per player and game."""
    def __init__(self, data_dir, batch_size, mode='reward', target_length=4):
        self.batch_size = batch_size
        self.data_files = ["log%03d.json" % i for i in range(40)]
        self.data_buffer = []

    def __len__(self):
        return len(self.data_files)

    def update_buffer(self):
        if len(self.data_files) == 0:
            return False
        self.data_files.pop()
        n_rounds = np.random.randint(4, 12)
        for _ in range(4):
            self.data_buffer.append((np.random.randn(n_rounds, 74), int(np.random.randint(-300, 600)) * 100))
        return True

    def __call__(self):
        while len(self.data_buffer) < self.batch_size:
            success = self.update_buffer()
            if not success:
                break
        data, self.data_buffer = self.data_buffer[:self.batch_size], self.data_buffer[self.batch_size:]
        return data

train_set = TenhouDataset(data_dir='data', batch_size=128, mode='reward', target_length=4)
hidden_dims, num_layers = 50, 2
model = RewardPredictor(74, hidden_dims, num_layers)
device = torch.device('cpu')
model.to(device)
optim = Adam(model.parameters())
loss_fcn = MSELoss()

data = train_set()
features, labels = process_reward_data(data)
features, labels = features.to(device), labels.to(device)
'''
CELL = '''
output = model(features)
loss = loss_fcn(output, labels)
optim.zero_grad()
loss.backward()
optim.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
