"""TabPFN with `inference_precision=torch.float16`: the model is cast, the preprocessed features stay float32.

Source: https://github.com/PriorLabs/TabPFN/issues/284
"TabPFNClassifier predictions fail if inference precision is set to torch.float16": `predict`
raised "expected mat1 and mat2 to have the same dtype, but got: float != c10::Half". The
classifier casts its transformer to the requested precision, but the preprocessing step turns the
NumPy features into a float32 tensor with a hard-coded dtype. Stand-in: a sklearn-style classifier
with the same cast and the same preprocessing.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import numpy as np
import torch
from torch import nn

class TabPFNLikeClassifier:
    def __init__(self, inference_precision=torch.float32):
        self.inference_precision = inference_precision

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        self.model_ = nn.Sequential(nn.Linear(X.shape[1], 32), nn.GELU(),
                                    nn.Linear(32, len(self.classes_)))
        self.model_.to(self.inference_precision)
        self.mean_, self.std_ = X.mean(0), X.std(0) + 1e-6
        return self

    def _preprocess(self, X):
        X = (X - self.mean_) / self.std_
        return torch.as_tensor(X, dtype=torch.float32)

    def predict_proba(self, X):
        with torch.inference_mode():
            logits = self.model_(self._preprocess(X))
        return logits.float().softmax(-1).numpy()

    def predict(self, X):
        return self.classes_[self.predict_proba(X).argmax(1)]

rng = np.random.default_rng(42)
X = rng.normal(size=(100, 10))
y = (X[:, 0] + X[:, 1] > 0).astype(int)
classifier = TabPFNLikeClassifier(inference_precision=torch.float16)
classifier.fit(X, y)
'''
CELL = '''
y_pred = classifier.predict(X)
'''
EXPECT_ERROR = "mat1 and mat2 must have the same dtype"
CULPRITS = ["classifier"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("return torch.as_tensor(X, dtype=torch.float32)",
                  "return torch.as_tensor(X, dtype=self.inference_precision)")
CLEAN = False
