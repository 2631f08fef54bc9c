"""Conditional VAE sample script: batches are moved to `device`, the CVAE model never is.

Source: https://github.com/graviraja/pytorch-sample-codes/issues/1
"Conditional_VAE.py does not work": running the script on a GPU machine, `train_loss = train()`
raised "Expected object of backend CPU but got backend CUDA for argument #4 'mat1'". The training
loop moves `x` (flattened images) and the one-hot `y` to `device`, but the model is built with
`model = CVAE(INPUT_DIM, HIDDEN_DIM, LATENT_DIM, N_CLASSES)` and never moved; the fix given in the
thread is `model = model.to(device)`. Stand-in: the script's Encoder/Decoder/CVAE, idx2onehot and
loss on a random MNIST-shaped batch; the backward/step is left out (no autograd in this simulation).
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

BATCH_SIZE = 8
INPUT_DIM = 28 * 28
HIDDEN_DIM = 256
LATENT_DIM = 20
N_CLASSES = 10
lr = 1e-3
device = torch.device("cuda:0")

train_iterator = [(torch.rand(BATCH_SIZE, 1, 28, 28), torch.randint(0, N_CLASSES, (BATCH_SIZE,)))
                  for _ in range(2)]

def idx2onehot(idx, n=N_CLASSES):
    assert idx.shape[1] == 1          # (the script also asserts max(idx) < n: no .item() here)
    onehot = torch.zeros(idx.size(0), n)
    onehot.scatter_(1, idx.data, 1)
    return onehot

class Encoder(nn.Module):
    def __init__(self, input_dim, hidden_dim, latent_dim, n_classes):
        super().__init__()
        self.linear = nn.Linear(input_dim + n_classes, hidden_dim)
        self.mu = nn.Linear(hidden_dim, latent_dim)
        self.var = nn.Linear(hidden_dim, latent_dim)

    def forward(self, x):
        hidden = F.relu(self.linear(x))
        return self.mu(hidden), self.var(hidden)

class Decoder(nn.Module):
    def __init__(self, latent_dim, hidden_dim, output_dim, n_classes):
        super().__init__()
        self.latent_to_hidden = nn.Linear(latent_dim + n_classes, hidden_dim)
        self.hidden_to_out = nn.Linear(hidden_dim, output_dim)

    def forward(self, x):
        x = F.relu(self.latent_to_hidden(x))
        return torch.sigmoid(self.hidden_to_out(x))

class CVAE(nn.Module):
    def __init__(self, input_dim, hidden_dim, latent_dim, n_classes):
        super().__init__()
        self.encoder = Encoder(input_dim, hidden_dim, latent_dim, n_classes)
        self.decoder = Decoder(latent_dim, hidden_dim, input_dim, n_classes)

    def forward(self, x, y):
        x = torch.cat((x, y), dim=1)
        z_mu, z_var = self.encoder(x)
        std = torch.exp(z_var / 2)
        eps = torch.randn_like(std)
        x_sample = eps.mul(std).add_(z_mu)
        z = torch.cat((x_sample, y), dim=1)
        generated_x = self.decoder(z)
        return generated_x, z_mu, z_var

def calculate_loss(x, reconstructed_x, mean, log_var):
    RCL = F.binary_cross_entropy(reconstructed_x, x, reduction="sum")
    KLD = -0.5 * torch.sum(1 + log_var - mean.pow(2) - log_var.exp())
    return RCL + KLD

model = CVAE(INPUT_DIM, HIDDEN_DIM, LATENT_DIM, N_CLASSES)
optimizer = optim.Adam(model.parameters(), lr=lr)
'''
CELL = '''
model.train()
train_loss = 0
for i, (x, y) in enumerate(train_iterator):
    x = x.view(-1, 28 * 28)
    x = x.to(device)
    y = idx2onehot(y.view(-1, 1))
    y = y.to(device)
    optimizer.zero_grad()
    reconstructed_x, z_mu, z_var = model(x, y)
    loss = calculate_loss(x, reconstructed_x, z_mu, z_var)
    train_loss = train_loss + loss
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model = model.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
