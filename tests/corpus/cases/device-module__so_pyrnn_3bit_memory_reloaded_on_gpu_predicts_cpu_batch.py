"""pyrnn 3-bit-memory example: the trained CTRNN is reloaded with `on_gpu=FIT` and predicts a CPU batch.

Source: https://github.com/FedeClaudi/pyrnn/issues/1
"Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0!":
running examples/3bit_memory_train.py, training (built with `on_gpu=False`) finishes, then the
script reloads the min-loss checkpoint with `RNN.load(..., on_gpu=FIT, ...)`; with FIT = True the
model's `build()` moves it to the GPU (`self.cuda()`), and `plot_predictions(rnn, N, batch_size)`
feeds the CPU batch from `make_batch` into `model.predict(X)`. `forward` moves only the fresh hidden
state (`if self.on_gpu: h = h.cuda(0)`), so `self.w_in(x[:, t, :])` mixes the CPU input with the
GPU weights. `predict` converts the outputs to NumPy, so the model belongs on the CPU here.
Stand-in: the pyrnn classes cut to RNNBase.build/_initialize_hidden/predict and CTRNN.forward
(`.cuda()` written as `.to("cuda:0")`); the dataset builds one trial without a DataLoader or the
label loop, and predict returns the detached tensors instead of `.numpy()` arrays (not possible in
the simulation); the plotting is dropped.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
from numpy import random as rnd
import torch
import torch.nn as nn

class ThreeBitDataset:
    def __init__(self, sequence_length, dataset_length=1):
        self.sequence_length = sequence_length
        self.dataset_length = dataset_length
        self.make_trials()

    def __len__(self):
        return self.dataset_length

    def make_trials(self):
        seq_len = self.sequence_length
        self.items = {}
        for i in range(self.dataset_length):
            X_batch = torch.zeros((seq_len, 3))
            Y_batch = torch.zeros((seq_len, 3))
            for m in range(3):
                flips = rnd.uniform(1, seq_len - 1, 2).astype(np.int64)
                X_batch[flips, m] = 1
                X_batch[0, m] = 1
            self.items[i] = (X_batch, Y_batch)

    def __getitem__(self, item):
        return self.items[item]

def make_batch(seq_len):
    X_batch, Y_batch = ThreeBitDataset(seq_len, dataset_length=1)[0]
    return X_batch.unsqueeze(0), Y_batch.unsqueeze(0)

class RNNBase(nn.Module):
    def __init__(self, input_size=1, output_size=1, n_units=50, on_gpu=False):
        super().__init__()
        self.on_gpu = on_gpu
        self.n_units = n_units
        self.output_size = output_size
        self.input_size = input_size

    def build(self):
        if self.on_gpu:
            self.to("cuda:0")
        else:
            self.on_gpu = False

    def _initialize_hidden(self, x, *args):
        return torch.zeros((1, x.shape[0], self.n_units))

    def predict(self, X):
        o, h = self(X[0, :, :].unsqueeze(0))
        o = o.detach()
        h = h.detach()
        return o, h

class CTRNN(RNNBase):
    sigma = nn.Tanh()

    def __init__(self, input_size=1, output_size=1, n_units=50, on_gpu=False, dt=5, tau=100):
        super().__init__(input_size=input_size, output_size=output_size, n_units=n_units, on_gpu=on_gpu)
        self.w_in = nn.Linear(input_size, n_units, bias=False)
        self.w_rec = nn.Linear(n_units, n_units, bias=True)
        self.w_out = nn.Linear(n_units, output_size, bias=False)
        self.build()
        self.tau, self.dt = tau, dt

    @classmethod
    def load(cls, path, *args, **kwargs):
        model = cls(*args, **kwargs)
        # model.load_state_dict(torch.load(path))  -- checkpoint loading left out
        model.eval()
        return model

    def forward(self, x, h=None):
        if h is None:
            h = self._initialize_hidden(x)
        if self.on_gpu:
            h = h.to("cuda:0")
        nbatch, length, ninp = x.shape
        out = torch.zeros(length, nbatch, self.output_size)
        for t in range(length):
            hdot = (-h + self.w_rec(self.sigma(h)) + self.w_in(x[:, t, :])) / self.tau
            h = h + self.dt * hdot
            out[t, :, :] = self.w_out(h)
        return out.permute(1, 0, 2), h

def plot_predictions(model, seq_len, batch_size):
    X, Y = make_batch(seq_len)
    o, h = model.predict(X)
    return o, h

FIT = True
n_units = 16
N = 12
batch_size = 4
rnn = CTRNN.load("./3bit_memory_minloss.pt", input_size=3, output_size=3, n_units=n_units,
                 on_gpu=FIT, tau=50, dt=5)
'''
CELL = '''
o, h = plot_predictions(rnn, N, batch_size)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["rnn"]
FIX = "namespace"
REFERENCE_FIX = '''
rnn.cpu()
rnn.on_gpu = False
'''
REFERENCE_EDIT = None
CLEAN = False
