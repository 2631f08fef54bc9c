"""Look-alike: a float16 tabular model whose preprocessing casts the NumPy features to the model's dtype.

Source: https://github.com/PriorLabs/TabPFN/issues/284
The issue asked that `inference_precision=torch.float16` work end to end; the consistent version
turns the float64 NumPy features into a tensor of the inference precision and upcasts only the
logits (`.float()`) for the softmax handed back to NumPy. Float64 data, float16 weights and a
float32 output side by side, each where it belongs: nothing to report.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class TabularClassifier:
    def __init__(self, inference_precision=torch.float32):
        self.inference_precision = inference_precision

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        self.model_ = nn.Sequential(nn.Linear(X.shape[1], 32), nn.GELU(),
                                    nn.Linear(32, len(self.classes_))).to(self.inference_precision)
        self.mean_, self.std_ = X.mean(0), X.std(0) + 1e-6
        return self

    def _preprocess(self, X):
        return torch.as_tensor((X - self.mean_) / self.std_, dtype=self.inference_precision)

    def predict_proba(self, X):
        with torch.inference_mode():
            logits = self.model_(self._preprocess(X))
        return logits.float().softmax(-1).numpy()

rng = np.random.default_rng(0)
X = rng.normal(size=(100, 10))
y = (X[:, 0] - X[:, 2] > 0).astype(int)
classifier = TabularClassifier(inference_precision=torch.float16).fit(X, y)
'''
CELL = '''
proba = classifier.predict_proba(X)
y_pred = classifier.classes_[proba.argmax(1)]
accuracy = (y_pred == y).mean()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
