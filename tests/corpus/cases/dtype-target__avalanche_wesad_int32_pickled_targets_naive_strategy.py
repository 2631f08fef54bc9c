"""Avalanche continual learning on WESAD (Windows): the experience datasets keep int32 targets and the Naive strategy's CrossEntropyLoss rejects them.

Source: https://github.com/ContinualAI/avalanche/issues/1588
Porting "Continual Learning for Human State Monitoring" (fexed/CLforHSM, `wesad_train_test.py`) to
Avalanche 0.4 on Windows, `strategy.train(experience)` failed in `cross_entropy`: "RuntimeError:
expected scalar type Long but found Int". `WESADTrSet` loads the pickled per-subject label arrays
(int32 as preprocessed on Windows) and stores `self.targets = torch.tensor(y)`, so every minibatch's
`mb_y` is int32. Stand-in: the repo's `WESADTrSet` with random windows for the pickles, minimal
`AvalancheDataset` / `dataset_benchmark` / `Naive` (one epoch, no plugins or evaluator), the repo's
GRU `Classifier`.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
from torch.nn import CrossEntropyLoss
from torch.optim import Adam
from torch.utils.data import Dataset, DataLoader

class WESADTrSet(Dataset):
    def __init__(self, pair, transform=None):
        self.transform = transform
        self.pair = pair
        rng = np.random.RandomState(pair)
        X = rng.randn(40, 20, 14).astype(np.float32)           # pickle.load(open(root + "X" + S + ".pkl"))
        y = rng.randint(0, 4, size=40).astype(np.int32)         # pickle.load(open(root + "y" + S + ".pkl"))
        if self.transform:
            X = self.transform(X)
        self.data = torch.tensor(X)
        self.targets = torch.tensor(y)

    def __len__(self):
        return len(self.data)

    def __getitem__(self, idx):
        data, target = self.data[idx], self.targets[idx]
        return data, target

class AvalancheDataset(Dataset):
    def __init__(self, dataset, task_labels=0):
        self.dataset, self.task_label = dataset, task_labels

    def __len__(self):
        return len(self.dataset)

    def __getitem__(self, idx):
        x, y = self.dataset[idx]
        return x, y, self.task_label

class Experience:
    def __init__(self, dataset, current_experience):
        self.dataset, self.current_experience = dataset, current_experience

class Scenario:
    def __init__(self, train_datasets, test_datasets):
        self.train_stream = [Experience(d, i) for i, d in enumerate(train_datasets)]
        self.test_stream = [Experience(d, i) for i, d in enumerate(test_datasets)]

def dataset_benchmark(train_datasets, test_datasets):
    return Scenario(train_datasets, test_datasets)

class Naive:
    def __init__(self, model, optimizer, criterion, train_mb_size=16, train_epochs=1, device=None, eval_every=-1):
        self.model, self.optimizer, self._criterion = model, optimizer, criterion
        self.train_mb_size, self.train_epochs = train_mb_size, train_epochs
        self.device = torch.device("cpu") if device is None else device
        self.mbatch = None

    @property
    def mb_x(self):
        return self.mbatch[0]

    @property
    def mb_y(self):
        return self.mbatch[1]

    def criterion(self):
        return self._criterion(self.mb_output, self.mb_y)

    def _unpack_minibatch(self):
        self.mbatch = [t.to(self.device) if torch.is_tensor(t) else t for t in self.mbatch]

    def train(self, experience):
        self.model.to(self.device)
        self.model.train()
        loader = DataLoader(experience.dataset, batch_size=self.train_mb_size, shuffle=True)
        for _ in range(self.train_epochs):
            for self.mbatch in loader:
                self._unpack_minibatch()
                self.optimizer.zero_grad()
                self.mb_output = self.model(self.mb_x)
                self.loss = self.criterion()
                self.loss.backward()
                self.optimizer.step()
        return {}

class Classifier(nn.Module):
    def __init__(self, in_dim, hidden_dim, out_dim, layers=1):
        super().__init__()
        self.rnn = nn.GRU(in_dim, hidden_dim, layers, batch_first=True)
        self.clf = nn.Linear(hidden_dim, out_dim)

    def forward(self, x):
        x, _ = self.rnn(x)
        x = x[:, -1]
        return self.clf(x)

device = torch.device("cpu")
train_sets = [WESADTrSet(pair=p) for p in range(3)]
scenario = dataset_benchmark([AvalancheDataset(ds, task_labels=i + 1) for i, ds in enumerate(train_sets)],
                             [AvalancheDataset(WESADTrSet(pair=7), task_labels=0)])
model = Classifier(in_dim=14, hidden_dim=18, out_dim=4, layers=2)
strategy = Naive(model, Adam(model.parameters(), lr=0.005, betas=(0.99, 0.99)), CrossEntropyLoss(),
                 train_epochs=1, eval_every=1, device=device)
'''
CELL = '''
for experience in scenario.train_stream:
    res = strategy.train(experience)
'''
EXPECT_ERROR = "expected target dtype to be Long or Byte, but got Int"
CULPRITS = ["train_sets"]
FIX = "namespace"
REFERENCE_FIX = '''
for ds in train_sets:
    ds.targets = ds.targets.long()
'''
REFERENCE_EDIT = None
CLEAN = False
