"""Mahjong-AI discard model: the tile labels from `process_data` are an IntTensor, and CrossEntropyLoss wants Long.

Source: https://github.com/windshadow233/Mahjong-AI/issues/2
Running `python sl_train/train_discard_model.py --num_layers 50 --epochs 10` failed at
`loss = loss_fcn(output, labels)` with '"nll_loss_forward_reduce_cuda_kernel_2d_index" not implemented
for 'Int''. `process_data` builds the labels with `torch.from_numpy(np.array(labels))`, which keeps
the 32-bit integers the reporter's NumPy produced, and `label_trans=lambda x: x // 4` keeps the dtype.
The reporter's fix, in the training loop: `labels = labels.type(torch.LongTensor)` before the loss.
Stand-in: `TenhouDataset` without the log files (the playback parser yields NumPy int32 tile ids, as
NumPy's default integer on the reporter's platform); `process_data` and `DiscardModel` as in the
repository at the time (a 2-block residual tower instead of 50); CPU only.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import random
import numpy as np
import torch
from torch import nn
from torch.optim import Adam
from torch.nn import CrossEntropyLoss

random.seed(0); np.random.seed(0); torch.manual_seed(0)

class ResBlock(nn.Module):
    def __init__(self):
        super(ResBlock, self).__init__()
        self.layers = nn.Sequential(
            nn.Conv1d(256, 256, kernel_size=3, padding='same'),
            nn.BatchNorm1d(256),
            nn.LeakyReLU(0.2),
            nn.Conv1d(256, 256, kernel_size=3, padding='same'),
            nn.BatchNorm1d(256),
            nn.LeakyReLU(0.2)
        )

    def forward(self, x):
        return x + self.layers(x)

class DiscardModel(nn.Module):
    def __init__(self, in_channels, num_layers=20):
        super(DiscardModel, self).__init__()
        self.in_conv = nn.Sequential(
            nn.Conv1d(in_channels, 256, kernel_size=3, padding='same'),
            nn.BatchNorm1d(256),
            nn.LeakyReLU(0.2)
        )
        self.res_blocks = nn.Sequential(
            *(ResBlock() for _ in range(num_layers))
        )
        self.out_conv = nn.Sequential(
            nn.Conv1d(256, 1, kernel_size=1),
            nn.BatchNorm1d(1)
        )

    def forward(self, x):
        x = self.in_conv(x)
        x = self.res_blocks(x)
        x = self.out_conv(x)
        return x.squeeze(1)

def process_data(one_batch, label_trans=None):
    features = []
    labels = []
    for f, lb in one_batch:
        features.append(f)
        labels.append(lb)
    features = torch.from_numpy(np.array(features)).float()
    labels = torch.from_numpy(np.array(labels))
    if callable(label_trans):
        labels = label_trans(labels)
    return features, labels

class TenhouDataset(object):
    """Stand-in: records parsed from Tenhou logs, (291 x 34 feature planes, discarded tile id 0..135)."""
    def __init__(self, data_dir, batch_size, mode='discard', target_length=1):
        self.data_dir = data_dir
        self.batch_size = batch_size
        self.data_files = ["log%03d.json" % i for i in range(8)]
        self.data_buffer = []

    def __len__(self):
        return len(self.data_files)

    def update_buffer(self):
        if len(self.data_files) == 0:
            return False
        self.data_files.pop()
        for _ in range(64):
            features = (np.random.rand(291, 34) < 0.1).astype(np.float64)
            label = np.int32(np.random.randint(0, 136))      # NumPy's 32-bit default int on the reporter's machine
            self.data_buffer.append((features, label))
        return True

    def __call__(self):
        while len(self.data_buffer) < self.batch_size:
            success = self.update_buffer()
            if not success:
                break
        data, self.data_buffer = self.data_buffer[:self.batch_size], self.data_buffer[self.batch_size:]
        return data

mode = 'discard'
train_set = TenhouDataset(data_dir='data', batch_size=128, mode=mode, target_length=2)
num_layers = 2
in_channels = 291
model = DiscardModel(num_layers=num_layers, in_channels=in_channels)
device = torch.device('cpu')
model.to(device)
optim = Adam(model.parameters())
loss_fcn = CrossEntropyLoss()

data = train_set()
features, labels = process_data(data, label_trans=lambda x: x // 4)
features, labels = features.to(device), labels.to(device)
'''
CELL = '''
output = model(features)
loss = loss_fcn(output, labels)
optim.zero_grad()
loss.backward()
optim.step()
'''
EXPECT_ERROR = ("expected target dtype to be Long", "expected scalar type Long", "not implemented for 'Int'")
CULPRITS = ["labels"]
FIX = "namespace"
REFERENCE_FIX = '''
labels = labels.type(torch.LongTensor)
'''
REFERENCE_EDIT = None
CLEAN = False
