"""braindecode `predict_trials`: the module is on the GPU, the windows the function loads stay on the CPU.

Source: https://github.com/braindecode/braindecode/pull/381
"When the module is on GPU and data is on CPU, `predict_trials` will fail. In the tests, everything
is always on CPU, therefore it did not attract attention." `predict_trials(module, dataset)` builds
its own DataLoader over the windows dataset and calls `module(X)` on each CPU batch. The merged fix
moves each batch to the module's device (`X = X.to(next(module.parameters()).device)`).
Stand-ins: a windows dataset of (X, y, ind) numpy EEG trials, a loader, and a ShallowFBCSPNet-shaped
network (temporal conv, spatial conv, batch norm, square, mean pool, log, linear classifier).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
from torch import nn

class WindowsDataset:
    def __init__(self, n_windows=12, n_chans=22, n_times=250, seed=0):
        rng = np.random.RandomState(seed)
        self.X = rng.randn(n_windows, n_chans, n_times).astype(np.float32)
        self.y = rng.randint(0, 4, n_windows)

    def __len__(self):
        return len(self.X)

    def __getitem__(self, i):
        return self.X[i], self.y[i], [i, 0, 250]

def _loader(dataset, batch_size):
    for start in range(0, len(dataset), batch_size):
        items = [dataset[i] for i in range(start, min(start + batch_size, len(dataset)))]
        X = torch.from_numpy(np.stack([it[0] for it in items]))
        y = torch.as_tensor([int(it[1]) for it in items])
        yield X, y, [it[2] for it in items]

class ShallowFBCSPNet(nn.Module):
    def __init__(self, n_chans, n_outputs, n_filters=8, pool=75, stride=15, n_times=250):
        super().__init__()
        self.conv_time = nn.Conv2d(1, n_filters, (25, 1))
        self.conv_spat = nn.Conv2d(n_filters, n_filters, (1, n_chans), bias=False)
        self.bnorm = nn.BatchNorm2d(n_filters)
        self.pool = nn.AvgPool2d((pool, 1), (stride, 1))
        n_out = (n_times - 24 - pool) // stride + 1
        self.final_layer = nn.Linear(n_filters * n_out, n_outputs)

    def forward(self, x):
        x = x.permute(0, 2, 1).unsqueeze(1)          # (batch, 1, time, chans)
        x = self.bnorm(self.conv_spat(self.conv_time(x)))
        x = torch.log(torch.clamp(self.pool(x * x), min=1e-6))
        return self.final_layer(x.flatten(1))

def predict_trials(module, dataset, return_targets=True):
    all_preds, all_ys, all_inds = [], [], []
    with torch.no_grad():
        for X, y, ind in _loader(dataset, batch_size=4):
            preds = module(X)
            all_preds.append(preds)
            all_ys.append(y)
            all_inds.extend(ind)
    preds = torch.cat(all_preds)
    if return_targets:
        return preds, torch.cat(all_ys)
    return preds

device = "cuda:0"
model = ShallowFBCSPNet(n_chans=22, n_outputs=4)
model.to(device)
model.eval()
test_set = WindowsDataset()
'''
CELL = '''
preds, targets = predict_trials(model, test_set)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
# NB: relabelled after first contact (it read "test_set"): the windows are NumPy arrays, which
# have no device; the report's fix is braindecode's predict_trials, which feeds them as they are
CULPRITS = ["predict_trials"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            preds = module(X)",
                  "            X = X.to(next(module.parameters()).device)\n            preds = module(X)")
CLEAN = False
