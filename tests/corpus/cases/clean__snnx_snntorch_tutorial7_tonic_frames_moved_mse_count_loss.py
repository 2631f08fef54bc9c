"""Look-alike: snnTorch tutorial 7 (tonic NMNIST frames); padded CPU batches are moved, count-loss targets follow the spikes.

Source: https://snntorch.readthedocs.io/en/latest/tutorials/tutorial_7.html
The tutorial converts events with `tonic.transforms.ToFrame(sensor_size, time_window=1000)`, batches
them with `tonic.collation.PadTensors(batch_first=False)` (time-first CPU tensors), and in the
training loop does `data = data.to(device); targets = targets.to(device)`, `spk_rec = forward_pass(net, data)`
and `loss_val = SF.mse_count_loss(correct_rate=0.8, incorrect_rate=0.2)(spk_rec, targets)`; the loss
builds its target spike counts on `spk_out.device`. It runs.
Stand-in: PadTensors, a reduced CSNN with lazily initialised Leaky layers, and mse_count_loss
(one-hot targets made with the spikes' device and dtype).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class Leaky(nn.Module):
    def __init__(self, beta, output=False):
        super().__init__()
        self.beta, self.output, self.mem = beta, output, None
    def forward(self, x):
        if self.mem is None or self.mem.shape != x.shape:
            self.mem = torch.zeros_like(x)
        self.mem = self.beta * self.mem + x
        spk = (self.mem > 1.0).to(x.dtype)
        self.mem = self.mem - spk
        return (spk, self.mem) if self.output else spk

def reset(net):
    for m in net.modules():
        if isinstance(m, Leaky):
            m.mem = None

class mse_count_loss:
    def __init__(self, correct_rate=1.0, incorrect_rate=0.0):
        self.correct_rate, self.incorrect_rate = correct_rate, incorrect_rate
    def __call__(self, spk_out, targets):
        num_steps, num_outputs = spk_out.size(0), spk_out.size(-1)
        one_hot = F.one_hot(targets, num_outputs).to(spk_out.dtype)
        on = torch.full_like(one_hot, self.correct_rate * num_steps)
        off = torch.full_like(one_hot, self.incorrect_rate * num_steps)
        spike_count_target = torch.where(one_hot.bool(), on, off)
        return F.mse_loss(spk_out.sum(0), spike_count_target)

def pad_tensors(batch):            # tonic.collation.PadTensors(batch_first=False)
    frames = torch.stack([torch.as_tensor(f, dtype=torch.float32) for f, _ in batch], dim=1)
    targets = torch.tensor([t for _, t in batch])
    return frames, targets

device = torch.device("cuda:0")
beta = 0.5
net = nn.Sequential(nn.Conv2d(2, 12, 5), nn.MaxPool2d(2), Leaky(beta),
                    nn.Conv2d(12, 32, 5), nn.MaxPool2d(2), Leaky(beta),
                    nn.Flatten(), nn.Linear(32 * 5 * 5, 10), Leaky(beta, output=True)).to(device)

def forward_pass(net, data):
    spk_rec = []
    reset(net)
    for step in range(data.size(0)):
        spk_out, mem_out = net(data[step])
        spk_rec.append(spk_out)
    return torch.stack(spk_rec)

rng = np.random.default_rng(0)
samples = [(rng.integers(0, 3, (6, 2, 34, 34)).astype(np.int16), k % 10) for k in range(8)]   # ToFrame output
data_cpu, targets_cpu = pad_tensors(samples)
loss_fn = mse_count_loss(correct_rate=0.8, incorrect_rate=0.2)
'''
CELL = '''
data = data_cpu.to(device)
targets = targets_cpu.to(device)
spk_rec = forward_pass(net, data)
loss_val = loss_fn(spk_rec, targets)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
