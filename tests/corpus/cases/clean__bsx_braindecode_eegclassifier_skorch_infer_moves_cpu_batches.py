"""braindecode `EEGClassifier(device="cuda")`: windows stay on the CPU, the skorch-based classifier moves each batch to the module's device in `infer`.

Source: https://github.com/braindecode/braindecode/blob/master/braindecode/classifier.py
`EEGClassifier` subclasses skorch's `NeuralNetClassifier`; `initialize` puts the module on
`device`, and every `train_step`/`evaluation_step` goes through `infer`, which calls
`to_device(x, self.device)` on the CPU batch. Look-alike: a CPU dataset beside a GPU network by
design, that runs.
Stand-ins: a minimal NeuralNet-like classifier with `initialize`/`infer`/`predict_proba` and an
EEGNet-shaped network (depthwise conv and ELU simplified) over CPU windows.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

def to_device(X, device):
    return X.to(device) if device is not None else X

class EEGClassifier:
    def __init__(self, module, device="cpu", batch_size=4):
        self.module, self.device, self.batch_size = module, device, batch_size

    def initialize(self):
        self.module_ = self.module.to(self.device)
        return self

    def infer(self, x):
        x = to_device(x, self.device)
        return self.module_(x)

    def predict_proba(self, X):
        probas = []
        self.module_.train(False)            # skorch evaluation_step
        with torch.no_grad():
            for i in range(0, len(X), self.batch_size):
                Xi = torch.from_numpy(X[i:i + self.batch_size])
                probas.append(torch.softmax(self.infer(Xi), dim=1))
        return probas

class EEGNet(nn.Module):
    def __init__(self, n_chans=22, n_outputs=4, F1=8, D=2):
        super().__init__()
        self.temporal = nn.Conv2d(1, F1, (1, 32), padding=(0, 16), bias=False)
        self.spatial = nn.Conv2d(F1, F1 * D, (n_chans, 1), bias=False)
        self.bn = nn.BatchNorm2d(F1 * D)
        self.pool = nn.AvgPool2d((1, 32), (1, 32))
        self.classifier = nn.Linear(F1 * D * 7, n_outputs)

    def forward(self, x):
        x = self.bn(self.spatial(self.temporal(x.unsqueeze(1))))
        return self.classifier(self.pool(torch.relu(x)).flatten(1))

X_test = np.random.RandomState(0).randn(8, 22, 250).astype(np.float32)
clf = EEGClassifier(EEGNet(), device="cuda:0").initialize()
'''
CELL = '''
probas = clf.predict_proba(X_test)
print(len(probas), probas[0].device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
