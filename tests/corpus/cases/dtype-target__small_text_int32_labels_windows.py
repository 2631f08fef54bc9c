"""small-text active learning on Windows: the dataset's label array is int32, so the classifier's cross-entropy gets Int targets.

Source: https://github.com/webis-de/small-text/issues/25
Running the stopping-criteria example notebook on Windows (torch 1.13.0+cpu) failed at
`indices_labeled = initialize_active_learner(active_learner, train.y)` with "expected scalar type
Long but found Int": the labels are a numpy array of the platform's default int (int32 on
Windows), and the initial training of the KimCNN classifier turned them into an IntTensor. Stand-in:
a pool-based active learner and a bag-of-embeddings classifier with the same call chain.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

class TextDataset:
    def __init__(self, x, y):
        self.x, self.y = x, y

class KimCNNClassifier:
    def __init__(self, num_classes, vocab_size=200, embed_dim=16, num_epochs=2):
        self.model = nn.Sequential(nn.EmbeddingBag(vocab_size, embed_dim), nn.Linear(embed_dim, num_classes))
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-3)
        self.num_epochs = num_epochs

    def fit(self, x, y):
        text = torch.as_tensor(x)
        label = torch.as_tensor(y)
        for _ in range(self.num_epochs):
            self.optimizer.zero_grad()
            loss = F.cross_entropy(self.model(text), label)
            loss.backward()
            self.optimizer.step()
        return self

class PoolBasedActiveLearner:
    def __init__(self, clf_factory, dataset):
        self.clf_factory, self.dataset = clf_factory, dataset

    def initialize_data(self, indices_initial, y_initial):
        self.indices_labeled = indices_initial
        self.classifier = self.clf_factory()
        self.classifier.fit(self.dataset.x[indices_initial], y_initial)

def random_initialization_balanced(y, n_samples=10):
    rng = np.random.default_rng(0)
    return np.sort(np.concatenate([rng.choice(np.where(y == c)[0], n_samples // 2, replace=False)
                                   for c in np.unique(y)]))

def initialize_active_learner(active_learner, y_train):
    indices_initial = random_initialization_balanced(y_train, n_samples=10)
    active_learner.initialize_data(indices_initial, y_train[indices_initial])
    return indices_initial

rng = np.random.default_rng(1)
# labels as read on Windows: np.array of Python ints -> int32
train = TextDataset(rng.integers(0, 200, size=(60, 12)), np.array(rng.integers(0, 2, size=60), dtype=np.int32))
active_learner = PoolBasedActiveLearner(lambda: KimCNNClassifier(num_classes=2), train)
'''
CELL = '''
indices_labeled = initialize_active_learner(active_learner, train.y)
'''
EXPECT_ERROR = ("expected scalar type Long but found Int", "expected target dtype to be Long or Byte, but got Int")
CULPRITS = ["train.y"]
FIX = "namespace"
REFERENCE_FIX = '''
train.y = train.y.astype(np.int64)
'''
REFERENCE_EDIT = None
CLEAN = False
