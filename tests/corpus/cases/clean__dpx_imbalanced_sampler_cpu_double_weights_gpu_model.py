"""Look-alike: ImbalancedDatasetSampler keeps its per-sample weights as a CPU DoubleTensor while the model trains on the accelerator.

Source: https://github.com/ufoym/imbalanced-dataset-sampler/blob/master/torchsampler/imbalanced.py
The sampler computes `weights = 1.0 / label_to_count[df["label"]]` and stores
`self.weights = torch.DoubleTensor(df["weight"].to_list())`; `__iter__` draws
`torch.multinomial(self.weights, self.num_samples, replacement=True)`. Those float64 CPU weights are
sampling state, never meant to meet the model; batches are moved to the device in the loop.
Stand-in: the sampler (without pandas), a DataLoader over a labelled tensor dataset, a model on the
accelerator (meta plays the GPU) and one training step.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
from torch.utils.data import DataLoader, Sampler, TensorDataset

class ImbalancedDatasetSampler(Sampler):
    def __init__(self, dataset, labels=None, num_samples=None):
        self.indices = list(range(len(dataset)))
        self.num_samples = len(self.indices) if num_samples is None else num_samples
        labels = labels.tolist()
        label_to_count = {l: labels.count(l) for l in set(labels)}
        self.weights = torch.DoubleTensor([1.0 / label_to_count[l] for l in labels])
    def __iter__(self):
        return (self.indices[i] for i in torch.multinomial(self.weights, self.num_samples, replacement=True))
    def __len__(self):
        return self.num_samples

x = torch.randn(40, 6)
y = torch.cat([torch.zeros(34, dtype=torch.long), torch.ones(6, dtype=torch.long)])
train_dataset = TensorDataset(x, y)
train_loader = DataLoader(train_dataset, sampler=ImbalancedDatasetSampler(train_dataset, labels=y), batch_size=8)
device = torch.device("meta")
model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 2)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
'''
CELL = '''
for inputs, targets in train_loader:
    inputs, targets = inputs.to(device), targets.to(device)
    loss = nn.functional.cross_entropy(model(inputs), targets)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    break
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
