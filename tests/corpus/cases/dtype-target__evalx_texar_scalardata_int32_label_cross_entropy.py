"""texar-pytorch `ScalarData`: an int label field comes out as int32, and `F.cross_entropy(logits, batch.label)` rejects it.

Source: https://github.com/asyml/texar-pytorch/issues/173
`ScalarData` only produced `torch.int32` for "int" fields; a classifier that feeds the label field straight
into `F.cross_entropy(input, target)` fails with "Expected object of scalar type Long but got scalar type Int
for argument #2 'target'", so users had to convert by hand (the issue asks for int64 support, added later).
Stand-in: a ScalarData-like dataset whose collate builds `torch.tensor(labels, dtype=torch.int32)`,
returning a batch object with `.text_ids` and `.label`, and a small text classifier.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
from types import SimpleNamespace
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

class ScalarData:
    def __init__(self, labels, text_ids, batch_size=4):
        self.labels, self.text_ids, self.batch_size = labels, text_ids, batch_size

    def collate(self, idx):
        return SimpleNamespace(
            text_ids=torch.tensor(self.text_ids[idx], dtype=torch.long),
            label=torch.tensor(self.labels[idx], dtype=torch.int32))   # "int" -> torch.int32

    def __iter__(self):
        for s in range(0, len(self.labels), self.batch_size):
            yield self.collate(np.arange(s, min(s + self.batch_size, len(self.labels))))

class Classifier(nn.Module):
    def __init__(self, vocab=200, dim=32, num_classes=3):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim)
        self.out = nn.Linear(dim, num_classes)

    def forward(self, text_ids):
        return self.out(self.emb(text_ids))

data = ScalarData(np.random.randint(0, 3, 12), np.random.randint(0, 200, (12, 10)))
model = Classifier()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
batch = next(iter(data))
'''
CELL = '''
logits = model(batch.text_ids)
loss = F.cross_entropy(logits, batch.label)
optimizer.zero_grad()
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = ("expected target dtype to be Long", "expected scalar type Long", "not implemented for 'Int'")
CULPRITS = ["batch.label"]
FIX = "namespace"
REFERENCE_FIX = '''
batch.label = batch.label.long()
'''
REFERENCE_EDIT = None
CLEAN = False
