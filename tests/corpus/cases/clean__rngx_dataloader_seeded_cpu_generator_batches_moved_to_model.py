"""Look-alike: a DataLoader shuffled by a seeded CPU `torch.Generator` (PyTorch reproducibility notes) feeding a model on the accelerator.

Source: https://pytorch.org/docs/stable/notes/randomness.html
The "DataLoader" section of the reproducibility notes: `g = torch.Generator(); g.manual_seed(0)` and
`DataLoader(train_dataset, batch_size=batch_size, num_workers=num_workers, worker_init_fn=seed_worker,
generator=g)`. The generator is a CPU generator on purpose (the sampler's `randperm` runs on the CPU)
while the model is on the GPU; batches are moved with `.to(device)`. Nothing to report. The
accelerator is simulated by meta; workers are left out (num_workers=0).
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import random
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

def seed_worker(worker_id):
    worker_seed = torch.initial_seed() % 2**32
    np.random.seed(worker_seed)
    random.seed(worker_seed)

g = torch.Generator()
g.manual_seed(0)

train_dataset = TensorDataset(torch.randn(64, 10), torch.randint(0, 3, (64,)))
train_loader = DataLoader(train_dataset, batch_size=16, shuffle=True, num_workers=0,
                          worker_init_fn=seed_worker, generator=g)

device = torch.device("meta")     # cuda:0 on a GPU machine
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3)).to(device)
criterion = nn.CrossEntropyLoss()
'''
CELL = '''
for inputs, targets in train_loader:
    inputs, targets = inputs.to(device), targets.to(device)
    loss = criterion(model(inputs), targets)
    break
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
