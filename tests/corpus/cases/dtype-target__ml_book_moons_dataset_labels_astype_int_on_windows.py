"""MachineLearningBook `torch-training.ipynb`: the Dataset stores labels with `astype('int')`, which is int32 on Windows; CrossEntropyLoss wants Long.

Source: https://github.com/phuijse/MachineLearningBook/issues/1
A reader ran the book's notebook in Jupyter on Windows and the training cell failed in
`update_step` at `loss = criterion(prediction, label)` with "expected scalar type Long but found
Int". `MyDataset` converts the make_moons labels with `torch.from_numpy(labels.astype('int'))`;
NumPy's default `int` is 32-bit on Windows, so every batch label is int32. Fix: store the labels as
int64 (`.long()` / `astype('int64')`). Reduced: make_moons by a numpy stand-in, `astype('int32')`
to get Windows' result on any OS, one epoch, the checkpoint `torch.save` elided.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.utils.data as data

np.random.seed(0)
t = np.random.rand(1000) * np.pi                        # sklearn.datasets.make_moons stand-in
y = (np.arange(1000) % 2)
X = np.stack([np.cos(t) + y, np.sin(t) * (1 - 2 * y) - 0.5 * y], axis=1) + 0.2 * np.random.randn(1000, 2)

class MyDataset(data.Dataset):
    def __init__(self, data: np.ndarray, labels: np.ndarray):
        self.data = torch.from_numpy(data.astype('float32'))
        self.labels = torch.from_numpy(labels.astype('int32'))   # astype('int') on Windows

    def __getitem__(self, idx: int):
        return (self.data[idx], self.labels[idx])

    def __len__(self):
        return len(self.labels)

dataset = MyDataset(X, y)
train_set, valid_set, test_set = data.random_split(dataset, [600, 200, 200],
                                                   generator=torch.Generator().manual_seed(1234))
train_loader = data.DataLoader(train_set, shuffle=True, batch_size=32)
valid_loader = data.DataLoader(valid_set, shuffle=False, batch_size=128)

def update_step(data, label):
    prediction = model(data)
    optimizer.zero_grad()
    loss = criterion(prediction, label)
    loss.backward()
    optimizer.step()
    return loss.item()

def evaluate_step(data, label):
    prediction = model(data)
    loss = criterion(prediction, label)
    return loss.item()

def train_one_epoch(epoch):
    train_loss, valid_loss = 0.0, 0.0
    for batchx, batchy in train_loader:
        train_loss += update_step(batchx, batchy)
    for batchx, batchy in valid_loader:
        valid_loss += evaluate_step(batchx, batchy)
    return train_loss/len(train_loader.dataset), valid_loss/len(valid_loader.dataset)

def my_model(n_hidden: int):
    return nn.Sequential(nn.Linear(2, n_hidden), nn.Tanh(), nn.Linear(n_hidden, 2))
'''
CELL = '''
model = my_model(5)
criterion = torch.nn.CrossEntropyLoss(reduction='sum')
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

max_epochs, best_valid_loss = 1, np.inf
running_loss = np.zeros(shape=(max_epochs, 2))
for epoch in range(max_epochs):
    running_loss[epoch] = train_one_epoch(epoch)
'''
EXPECT_ERROR = ("expected scalar type Long but found Int", "expected target dtype to be Long or Byte, but got Int")
CULPRITS = ["dataset.labels"]
FIX = "namespace"
REFERENCE_FIX = '''
dataset.labels = dataset.labels.long()
'''
REFERENCE_EDIT = None
CLEAN = False
