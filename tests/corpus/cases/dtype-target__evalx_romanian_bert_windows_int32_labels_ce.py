"""Romanian-Transformers fine-tuning example on Windows: int32 label tensor into CrossEntropyLoss.

Source: https://github.com/dumitrescustefan/Romanian-Transformers/pull/6
On Windows the labels read into numpy default to int32, so `torch.tensor(labels)` is an IntTensor and
`loss = loss_fn(logits, labels)` fails with "Expected object of scalar type Long but got scalar type Int
for argument #2 'target'". The PR ("avoid getting error when calculating loss") casts the labels to
long before the loss.
Stand-in: a bag-of-embeddings classifier in place of the Romanian BERT, one batch of token ids and the
int32 labels.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
from torch import nn

class Classifier(nn.Module):
    def __init__(self, vocab_size=100, hidden=32, num_labels=3):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab_size, hidden)
        self.dropout = nn.Dropout(0.1)
        self.classifier = nn.Linear(hidden, num_labels)

    def forward(self, input_ids):
        return self.classifier(self.dropout(self.emb(input_ids)))

model = Classifier()
loss_fn = nn.CrossEntropyLoss()
train_labels = np.array([0, 2, 1, 1, 0, 2, 1, 0], dtype=np.int32)   # numpy's default int on Windows
input_ids = torch.randint(0, 100, (8, 12))
labels = torch.tensor(train_labels)
'''
CELL = '''
logits = model(input_ids)
loss = loss_fn(logits, labels)
loss.backward()
'''
EXPECT_ERROR = ("expected target dtype to be Long", "expected scalar type Long", "not implemented for 'Int'")
CULPRITS = ["labels"]
FIX = "namespace"
REFERENCE_FIX = '''
labels = labels.long()
'''
REFERENCE_EDIT = None
CLEAN = False
