"""braindecode `predict_trials` after the fix: CPU windows are moved to the device of the module's parameters before the forward.

Source: https://github.com/braindecode/braindecode/blob/master/braindecode/training/scoring.py
The windows dataset stays on the CPU and its loader yields CPU batches while the network sits on
the GPU; `predict_trials` reads `device = next(module.parameters()).device` and sends each batch
there (`X = X.to(device)`), then keeps predictions on the GPU. Look-alike: CPU data beside a GPU
model on purpose, that runs.
Stand-ins: a numpy windows dataset, a loader, a ShallowFBCSPNet-shaped network.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class WindowsDataset:
    def __init__(self, n_windows=8, n_chans=22, n_times=250, seed=0):
        rng = np.random.RandomState(seed)
        self.X = rng.randn(n_windows, n_chans, n_times).astype(np.float32)
        self.y = rng.randint(0, 4, n_windows)

    def __len__(self):
        return len(self.X)

    def __getitem__(self, i):
        return self.X[i], self.y[i], [i, 0, 250]

def _loader(dataset, batch_size):
    for start in range(0, len(dataset), batch_size):
        idx = range(start, min(start + batch_size, len(dataset)))
        yield (torch.from_numpy(np.stack([dataset[i][0] for i in idx])),
               torch.as_tensor([int(dataset[i][1]) for i in idx]),
               [dataset[i][2] for i in idx])

class ShallowFBCSPNet(nn.Module):
    def __init__(self, n_chans, n_outputs, n_filters=8, pool=75, stride=15, n_times=250):
        super().__init__()
        self.conv_time = nn.Conv2d(1, n_filters, (25, 1))
        self.conv_spat = nn.Conv2d(n_filters, n_filters, (1, n_chans), bias=False)
        self.bnorm = nn.BatchNorm2d(n_filters)
        self.pool = nn.AvgPool2d((pool, 1), (stride, 1))
        self.final_layer = nn.Linear(n_filters * ((n_times - 24 - pool) // stride + 1), n_outputs)

    def forward(self, x):
        x = self.bnorm(self.conv_spat(self.conv_time(x.permute(0, 2, 1).unsqueeze(1))))
        x = torch.log(torch.clamp(self.pool(x * x), min=1e-6))
        return self.final_layer(x.flatten(1))

def predict_trials(module, dataset, return_targets=True):
    all_preds, all_ys = [], []
    with torch.no_grad():
        for X, y, ind in _loader(dataset, batch_size=4):
            device = next(module.parameters()).device
            X = X.to(device)
            all_preds.append(module(X))
            all_ys.append(y)
    preds = torch.cat(all_preds)
    return (preds, torch.cat(all_ys)) if return_targets else preds

model = ShallowFBCSPNet(n_chans=22, n_outputs=4).to("cuda:0").eval()
test_set = WindowsDataset()
'''
CELL = '''
preds, targets = predict_trials(model, test_set)
print(preds.device, targets.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
