"""Look-alike: Graph WaveNet's test evaluation un-scales GPU predictions with a StandardScaler holding numpy float mean/std and masks the metrics with a Python float `null_val`.

Source: https://github.com/nnzhan/Graph-WaveNet/blob/master/util.py
`calc_test_metrics(model, device, test_loader, scaler, realy)` collects `model(testx).transpose(1, 3)`
for every batch (`testx = torch.Tensor(x).to(device).transpose(1, 3)`), concatenates them, cuts to
`realy.size(0)` (`realy` was moved to the device in train.py), and for each horizon computes
`scaler.inverse_transform(yhat[:, :, i])` and `masked_mae/mape/rmse(pred, real, 0.0)`. The scaler's
mean/std are numpy scalars computed on the training array: mixing them with cuda tensors is fine.
Stand-in: a tiny conv forecaster in place of gwnet, and the loader as a list of numpy batches.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class StandardScaler():
    def __init__(self, mean, std):
        self.mean = mean
        self.std = std
    def transform(self, data):
        return (data - self.mean) / self.std
    def inverse_transform(self, data):
        return (data * self.std) + self.mean

def masked_mae(preds, labels, null_val=np.nan):
    if np.isnan(null_val):
        mask = ~torch.isnan(labels)
    else:
        mask = (labels != null_val)
    mask = mask.float()
    mask /= torch.mean((mask))
    mask = torch.where(torch.isnan(mask), torch.zeros_like(mask), mask)
    loss = torch.abs(preds - labels)
    loss = loss * mask
    loss = torch.where(torch.isnan(loss), torch.zeros_like(loss), loss)
    return torch.mean(loss)

def masked_rmse(preds, labels, null_val=np.nan):
    if np.isnan(null_val):
        mask = ~torch.isnan(labels)
    else:
        mask = (labels != null_val)
    mask = mask.float()
    mask /= torch.mean((mask))
    mask = torch.where(torch.isnan(mask), torch.zeros_like(mask), mask)
    loss = (preds - labels) ** 2 * mask
    loss = torch.where(torch.isnan(loss), torch.zeros_like(loss), loss)
    return torch.sqrt(torch.mean(loss))

class Forecaster(nn.Module):
    def __init__(self, in_dim=2, seq_length=12, out_dim=12):
        super().__init__()
        self.conv = nn.Conv2d(in_dim, 16, kernel_size=(1, 1))
        self.out = nn.Conv2d(16, out_dim, kernel_size=(1, seq_length))
    def forward(self, x):
        return self.out(torch.relu(self.conv(x)))

num_nodes = 15
train_speed = np.random.rand(200, 12, num_nodes) * 70
scaler = StandardScaler(mean=train_speed.mean(), std=train_speed.std())
x_test = np.random.randn(20, 12, num_nodes, 2).astype(np.float32)
y_test = (np.random.rand(20, 12, num_nodes, 2) * 70).astype(np.float32)
test_loader = [(x_test[i:i + 8], y_test[i:i + 8]) for i in range(0, 20, 8)]

device = torch.device("cuda:0")
model = Forecaster().to(device)
realy = torch.Tensor(y_test).to(device).transpose(1, 3)[:, 0, :, :]
'''
CELL = '''
model.eval()
outputs = []
with torch.no_grad():
    for iter, (x, y) in enumerate(test_loader):
        testx = torch.Tensor(x).to(device).transpose(1, 3)
        preds = model(testx).transpose(1, 3)
        outputs.append(preds.squeeze(1))
    yhat = torch.cat(outputs, dim=0)[:realy.size(0), ...]
    test_met = []
    for i in range(12):
        pred = scaler.inverse_transform(yhat[:, :, i])
        real = realy[:, :, i]
        test_met.append((masked_mae(pred, real, 0.0), masked_rmse(pred, real, 0.0)))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
