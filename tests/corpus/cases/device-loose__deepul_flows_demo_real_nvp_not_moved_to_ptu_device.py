"""deepul flows demo: the `RealNVP` model is built and trained without `.to(ptu.device)`; the batches and masks are on the GPU.

Source: https://github.com/rll/deepul/issues/5
"Flows demo fails because of missing `.to(ptu.device)`": running the lecture demo cells in order,
the `AutoregressiveFlow` and `RealNVP` cells fail inside `train_epochs` with a device mismatch.
"If I add `real_nvp = real_nvp.to(ptu.device)`, all works fine". The training loop moves each batch
with `x.to(ptu.device).float()`, but the model's MLP weights stayed on the CPU. Stand-in (the demo
notebook reconstructed): coupling layers whose masks are made on `ptu.device`, so that moving the
model is the whole fix, as reported; two-moons-shaped random data, two coupling layers, one epoch;
the "GPU" is meta.
"""

SIM = "meta"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn
import torch.optim as optim
import types

torch.distributions.Distribution.set_default_validate_args(False)   # value checks read meta tensors
ptu = types.SimpleNamespace(device=torch.device("meta"))       # deepul.pytorch_util, set_gpu_mode(True)

class MLP(nn.Module):
    def __init__(self, input_size, n_hidden, hidden_size, output_size):
        super().__init__()
        layers = [nn.Linear(input_size, hidden_size), nn.ReLU()]
        for _ in range(n_hidden - 1):
            layers += [nn.Linear(hidden_size, hidden_size), nn.ReLU()]
        layers.append(nn.Linear(hidden_size, output_size))
        self.layers = nn.Sequential(*layers)
    def forward(self, x):
        return self.layers(x)

class AffineTransform(nn.Module):
    def __init__(self, type, n_hidden=2, hidden_size=256):
        super().__init__()
        self.mask = self.build_mask(type=type)
        self.scale = nn.Parameter(torch.zeros(1), requires_grad=True)
        self.scale_shift = nn.Parameter(torch.zeros(1), requires_grad=True)
        self.mlp = MLP(input_size=2, n_hidden=n_hidden, hidden_size=hidden_size, output_size=2)
    def build_mask(self, type):
        assert type in {"left", "right"}
        if type == "left":
            mask = torch.FloatTensor([1.0, 0.0]).to(ptu.device)
        else:
            mask = torch.FloatTensor([0.0, 1.0]).to(ptu.device)
        return mask
    def forward(self, x, reverse=False):
        batch_size = x.shape[0]
        mask = self.mask.repeat(batch_size, 1)
        x_ = x * mask
        log_s, t = self.mlp(x_).split(1, dim=1)
        log_s = self.scale * torch.tanh(log_s) + self.scale_shift
        t = t * (1.0 - mask)
        log_s = log_s * (1.0 - mask)
        x = x * torch.exp(log_s) + t
        return x, log_s

class RealNVP(nn.Module):
    def __init__(self, transforms, dataset, name, labels):
        super().__init__()
        self.prior = torch.distributions.Normal(torch.tensor(0.).to(ptu.device), torch.tensor(1.).to(ptu.device))
        self.transforms = nn.ModuleList(transforms)
    def flow(self, x):
        z, log_det = x, torch.zeros_like(x)
        for op in self.transforms:
            z, delta_log_det = op.forward(z)
            log_det = log_det + delta_log_det
        return z, log_det
    def log_prob(self, x):
        z, log_det = self.flow(x)
        return torch.sum(log_det, dim=1) + torch.sum(self.prior.log_prob(z), dim=1)
    def nll(self, x):
        return -self.log_prob(x).mean()

def train(model, train_loader, optimizer):
    model.train()
    for x in train_loader:
        x = x.to(ptu.device).float()
        loss = model.nll(x)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

def train_epochs(model, train_loader, test_loader, train_args):
    epochs, lr = train_args["epochs"], train_args["lr"]
    optimizer = optim.Adam(model.parameters(), lr=lr)
    for epoch in range(epochs):
        model.train()
        train(model, train_loader, optimizer)
    return [], []

train_data = torch.randn(256, 2, dtype=torch.float64)
train_labels = torch.randint(0, 2, (256,))
train_loader = torch.utils.data.DataLoader(train_data, batch_size=128, shuffle=True)
test_loader = torch.utils.data.DataLoader(train_data[:64], batch_size=64)
real_nvp = RealNVP([AffineTransform("left", n_hidden=2, hidden_size=64),
                    AffineTransform("right", n_hidden=2, hidden_size=64)],
                   train_loader.dataset, "moons", train_labels)
'''
CELL = '''
train_losses, test_losses = train_epochs(real_nvp, train_loader, test_loader, dict(epochs=1, lr=5e-3, epochs_to_plot=[0]))
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["real_nvp"]
FIX = "namespace"
REFERENCE_FIX = '''
real_nvp = real_nvp.to(ptu.device)
'''
REFERENCE_EDIT = None
CLEAN = False
