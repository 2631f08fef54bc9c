"""USAD `testing`: CPU windows from a numpy TensorDataset are moved with `to_device` before the GPU autoencoders.

Source: https://github.com/manigalati/usad/blob/master/usad.py
The USAD notebook builds `test_loader` from `torch.from_numpy(windows_normal_test).float()` on the
CPU; `testing(model, test_loader, alpha, beta)` calls `batch = to_device(batch, device)` (from
utils.py, `device = get_default_device()`), runs `w1 = model.decoder1(model.encoder(batch))` and
`w2 = model.decoder2(model.encoder(w1))`, and collects `alpha*mean((batch-w1)**2) +
beta*mean((batch-w2)**2)`. Look-alike: CPU data loader beside a GPU model, moved per batch, that runs.
Stand-in: USAD's Encoder/Decoder MLPs at small sizes; the final `.cpu().numpy()` of the scores is
left out and the DataLoader's batches are listed (the GPU is simulated).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.utils.data as data_utils

def get_default_device():
    return torch.device('cuda:0')

def to_device(data, device):
    if isinstance(data, (list, tuple)):
        return [to_device(x, device) for x in data]
    return data.to(device, non_blocking=True)

device = get_default_device()

class Encoder(nn.Module):
    def __init__(self, in_size, latent_size):
        super().__init__()
        self.linear1 = nn.Linear(in_size, int(in_size / 2))
        self.linear2 = nn.Linear(int(in_size / 2), int(in_size / 4))
        self.linear3 = nn.Linear(int(in_size / 4), latent_size)
        self.relu = nn.ReLU(True)

    def forward(self, w):
        return self.relu(self.linear3(self.relu(self.linear2(self.relu(self.linear1(w))))))

class Decoder(nn.Module):
    def __init__(self, latent_size, out_size):
        super().__init__()
        self.linear1 = nn.Linear(latent_size, int(out_size / 4))
        self.linear2 = nn.Linear(int(out_size / 4), int(out_size / 2))
        self.linear3 = nn.Linear(int(out_size / 2), out_size)
        self.relu = nn.ReLU(True)
        self.sigmoid = nn.Sigmoid()

    def forward(self, z):
        return self.sigmoid(self.linear3(self.relu(self.linear2(self.relu(self.linear1(z))))))

class UsadModel(nn.Module):
    def __init__(self, w_size, z_size):
        super().__init__()
        self.encoder = Encoder(w_size, z_size)
        self.decoder1 = Decoder(z_size, w_size)
        self.decoder2 = Decoder(z_size, w_size)

def testing(model, test_loader, alpha=.5, beta=.5):
    results = []
    for [batch] in test_loader:
        batch = to_device(batch, device)
        w1 = model.decoder1(model.encoder(batch))
        w2 = model.decoder2(model.encoder(w1))
        results.append(alpha * torch.mean((batch - w1) ** 2, axis=1) + beta * torch.mean((batch - w2) ** 2, axis=1))
    return results

window_size, n_feats, hidden_size = 12, 4, 10
w_size, z_size = window_size * n_feats, window_size * hidden_size
windows_attack = np.random.default_rng(0).random((40, window_size, n_feats))
test_set = data_utils.TensorDataset(
    torch.from_numpy(windows_attack).float().view(([windows_attack.shape[0], w_size])))
# DataLoader(test_set, batch_size=16, shuffle=False) in the notebook; its iterator draws a seed with
# .item(), which the simulated GPU cannot run, so the same CPU batches are listed here
test_loader = [[test_set.tensors[0][i:i + 16]] for i in range(0, len(test_set), 16)]
model = UsadModel(w_size, z_size)
model = to_device(model, device)
'''
CELL = '''
results = testing(model, test_loader)
print(len(results), results[0].device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
