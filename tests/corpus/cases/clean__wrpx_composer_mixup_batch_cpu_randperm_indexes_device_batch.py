"""Look-alike: Composer's functional `mixup_batch` permutes a device batch with `torch.randperm(n)` made on the CPU; indexing a device tensor with CPU indices is allowed.

Source: https://github.com/mosaicml/composer/blob/6405188805a0054b4551ec49e4919c54c971d0e8/composer/algorithms/mixup/mixup.py
`mixup_batch` draws `mixing` with numpy (`_gen_mixing_coef`, a Python float) and the permutation with
`_gen_indices(num_samples) = torch.randperm(num_samples)` (no device), then does
`x_permuted = input[permuted_idx]`, `permuted_target = target[permuted_idx]` and
`(1 - mixing) * input + mixing * x_permuted`. The Functional-API notebook uses it inside a training
loop whose batches are on the accelerator; the loss interpolates two cross entropies. A CPU index
tensor next to device data, on purpose: nothing to report. Simulated with "meta" as the accelerator
(fake cuda tensors cannot be indexed); composer's code is copied as is.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

def _gen_mixing_coef(alpha):
    """Samples ``max(z, 1-z), z ~ Beta(alpha, alpha)``."""
    assert alpha >= 0
    if alpha == 0:
        mixing_lambda = 0
    else:
        mixing_lambda = np.random.beta(alpha, alpha)
    return max(mixing_lambda, 1 - mixing_lambda)

def _gen_indices(num_samples):
    """Generates a random permutation of the batch indices."""
    return torch.randperm(num_samples)

def mixup_batch(input, target, mixing=None, alpha=0.2, indices=None):
    if mixing is None:
        mixing = _gen_mixing_coef(alpha)
    if indices is None:
        permuted_idx = _gen_indices(input.shape[0])
    else:
        permuted_idx = indices
    x_permuted = input[permuted_idx]
    permuted_target = target[permuted_idx]
    x_mixup = (1 - mixing) * input + mixing * x_permuted
    return x_mixup, permuted_target, mixing

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, kernel_size=(3, 3), stride=2)
        self.conv2 = nn.Conv2d(16, 32, kernel_size=(3, 3))
        self.norm = nn.BatchNorm2d(32)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc1 = nn.Linear(32, 128)
        self.fc2 = nn.Linear(128, 64)
        self.fc3 = nn.Linear(64, 10)
    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = self.conv2(x)
        x = F.relu(self.norm(x))
        x = torch.flatten(self.pool(x), 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)

device = "meta"
model = Net().to(device)
opt = torch.optim.Adam(model.parameters())
trainloader = [(torch.randn(16, 3, 32, 32), torch.randint(0, 10, (16,))) for _ in range(2)]
'''
CELL = '''
model.train()
for X, y in trainloader:
    X, y = X.to(device), y.to(device)
    X_mixed, y_perm, mixing = mixup_batch(X, y, alpha=0.2)
    y_hat = model(X_mixed)
    loss = (1 - mixing) * F.cross_entropy(y_hat, y) + mixing * F.cross_entropy(y_hat, y_perm)
    loss.backward()
    opt.step()
    opt.zero_grad()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
