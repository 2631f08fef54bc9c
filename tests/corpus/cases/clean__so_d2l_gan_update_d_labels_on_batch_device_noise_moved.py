"""d2l GAN chapter after "[PyTorch] Fix GAN": labels made on `X.device`, noise drawn on CPU and moved.

Source: https://github.com/d2l-ai/d2l-en/pull/1400
The PR ("Fix Loss ... Put tensors to device") makes `update_D` / `update_G` create the targets with
`torch.ones((batch_size,), device=X.device)` / `torch.zeros(...)`, and the training loop draw
`Z = torch.normal(0, 1, size=(batch_size, latent_dim))` on the CPU and then move both with
`X, Z = X.to(device), Z.to(device)`. Look-alike: CPU-made noise and label tensors around a model on
the accelerator, each moved (or created on the batch's device) before use; the "GPU" is the meta
device. Stand-in: the chapter's Gaussian-data MLP GAN, one epoch of a few batches.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def update_D(X, Z, net_D, net_G, loss, trainer_D):
    batch_size = X.shape[0]
    ones = torch.ones((batch_size,), device=X.device)
    zeros = torch.zeros((batch_size,), device=X.device)
    trainer_D.zero_grad()
    real_Y = net_D(X)
    fake_X = net_G(Z)
    fake_Y = net_D(fake_X.detach())
    loss_D = (loss(real_Y, ones.reshape(real_Y.shape)) +
              loss(fake_Y, zeros.reshape(fake_Y.shape))) / 2
    loss_D.backward()
    trainer_D.step()
    return loss_D

def update_G(Z, net_D, net_G, loss, trainer_G):
    batch_size = Z.shape[0]
    ones = torch.ones((batch_size,), device=Z.device)
    trainer_G.zero_grad()
    fake_X = net_G(Z)
    fake_Y = net_D(fake_X)
    loss_G = loss(fake_Y, ones.reshape(fake_Y.shape))
    loss_G.backward()
    trainer_G.step()
    return loss_G

def train(net_D, net_G, data_iter, num_epochs, lr_D, lr_G, latent_dim, device):
    loss = nn.BCEWithLogitsLoss(reduction='sum')
    net_D, net_G = net_D.to(device), net_G.to(device)
    trainer_D = torch.optim.Adam(net_D.parameters(), lr=lr_D)
    trainer_G = torch.optim.Adam(net_G.parameters(), lr=lr_G)
    for epoch in range(num_epochs):
        for (X,) in data_iter:
            batch_size = X.shape[0]
            Z = torch.normal(0, 1, size=(batch_size, latent_dim))
            X, Z = X.to(device), Z.to(device)
            update_D(X, Z, net_D, net_G, loss, trainer_D)
            update_G(Z, net_D, net_G, loss, trainer_G)

X = torch.normal(0.0, 1, (200, 2))
A = torch.tensor([[1, 2], [-0.1, 0.5]])
b = torch.tensor([1, 2])
data = torch.matmul(X, A) + b
data_iter = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(data), batch_size=8, shuffle=True)
net_G = nn.Sequential(nn.Linear(2, 2))
net_D = nn.Sequential(nn.Linear(2, 5), nn.Tanh(), nn.Linear(5, 3), nn.Tanh(), nn.Linear(3, 1))
device = torch.device("meta")
'''
CELL = '''
train(net_D, net_G, data_iter, num_epochs=1, lr_D=0.05, lr_G=0.005, latent_dim=2, device=device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
