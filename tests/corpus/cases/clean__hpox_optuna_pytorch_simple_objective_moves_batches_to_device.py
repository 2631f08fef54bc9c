"""Optuna's PyTorch example: the objective builds a trial-sized model on the GPU and moves each CPU batch itself.

Source: https://github.com/optuna/optuna-examples/blob/main/pytorch/pytorch_simple.py
`objective(trial)` calls `define_model(trial)` (a trial-chosen number of Linear/ReLU/Dropout layers),
`.to(DEVICE)`, then in the validation loop does `data, target = data.view(data.size(0), -1).to(DEVICE),
target.to(DEVICE)` on batches from a CPU FashionMNIST loader and counts
`pred.eq(target.view_as(pred)).sum()`. Look-alike: a CPU DataLoader next to a GPU model, every batch
moved before use. Stand-ins: a fixed trial (no optuna import), random FashionMNIST-shaped batches,
evaluation only (no backward on the simulated GPU).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

DEVICE = torch.device("cuda:0")
BATCHSIZE = 128
CLASSES = 10

class FixedTrial:
    def __init__(self, params):
        self.params = params
    def suggest_int(self, name, low, high):
        return self.params[name]
    def suggest_float(self, name, low, high, log=False):
        return self.params[name]

def define_model(trial):
    n_layers = trial.suggest_int("n_layers", 1, 3)
    layers = []
    in_features = 28 * 28
    for i in range(n_layers):
        out_features = trial.suggest_int("n_units_l{}".format(i), 4, 128)
        layers.append(nn.Linear(in_features, out_features))
        layers.append(nn.ReLU())
        p = trial.suggest_float("dropout_l{}".format(i), 0.2, 0.5)
        layers.append(nn.Dropout(p))
        in_features = out_features
    layers.append(nn.Linear(in_features, CLASSES))
    layers.append(nn.LogSoftmax(dim=1))
    return nn.Sequential(*layers)

trial = FixedTrial({"n_layers": 2, "n_units_l0": 64, "n_units_l1": 32, "dropout_l0": 0.3, "dropout_l1": 0.2})
model = define_model(trial).to(DEVICE)
valid_loader = [(torch.randn(BATCHSIZE, 1, 28, 28), torch.randint(0, CLASSES, (BATCHSIZE,))) for _ in range(2)]
'''
CELL = '''
model.eval()
correct = 0
with torch.no_grad():
    for batch_idx, (data, target) in enumerate(valid_loader):
        data, target = data.view(data.size(0), -1).to(DEVICE), target.to(DEVICE)
        output = model(data)
        pred = output.argmax(dim=1, keepdim=True)
        correct += pred.eq(target.view_as(pred)).sum()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
