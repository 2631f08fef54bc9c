"""Look-alike: the original FNO Darcy script fits `UnitGaussianNormalizer` on CPU data and moves its statistics with the normalizer's own `.cuda()` before decoding GPU outputs.

Source: https://github.com/neuraloperator/neuraloperator/blob/master/fourier_2d.py (with utilities3.py)
The legacy FNO scripts build `y_normalizer = UnitGaussianNormalizer(y_train)` (a plain object holding
`mean`/`std` tensors computed on the CPU training set, not a module), encode the CPU tensors, then call
`model.cuda()` and `y_normalizer.cuda()` — the normalizer's own method that rebinds `self.mean` and
`self.std` to the GPU — before the loop does `x, y = x.cuda(), y.cuda()` and
`out = y_normalizer.decode(model(x))`. Nothing is left on the CPU. Reduced: one Fourier layer with the
`torch.fft.rfft2` API of the later scripts, LpLoss, one optimisation step; meta plays cuda (the
normalizer's `cuda()` body moves to it).
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

DEVICE = "meta"      # what .cuda() targets in the script

class UnitGaussianNormalizer(object):
    def __init__(self, x, eps=0.00001):
        self.mean = torch.mean(x, 0)
        self.std = torch.std(x, 0)
        self.eps = eps

    def encode(self, x):
        return (x - self.mean) / (self.std + self.eps)

    def decode(self, x, sample_idx=None):
        std = self.std + self.eps
        mean = self.mean
        return (x * std) + mean

    def cuda(self):
        self.mean = self.mean.to(DEVICE)
        self.std = self.std.to(DEVICE)

class LpLoss(object):
    def __init__(self, d=2, p=2, size_average=True, reduction=True):
        self.d, self.p, self.reduction, self.size_average = d, p, reduction, size_average

    def rel(self, x, y):
        num_examples = x.size()[0]
        diff_norms = torch.norm(x.reshape(num_examples, -1) - y.reshape(num_examples, -1), self.p, 1)
        y_norms = torch.norm(y.reshape(num_examples, -1), self.p, 1)
        return torch.sum(diff_norms / y_norms) if not self.size_average else torch.mean(diff_norms / y_norms)

    def __call__(self, x, y):
        return self.rel(x, y)

class SpectralConv2d(nn.Module):
    def __init__(self, in_channels, out_channels, modes1, modes2):
        super().__init__()
        self.out_channels, self.modes1, self.modes2 = out_channels, modes1, modes2
        self.scale = 1 / (in_channels * out_channels)
        self.weights1 = nn.Parameter(self.scale * torch.rand(in_channels, out_channels, modes1, modes2, dtype=torch.cfloat))
        self.weights2 = nn.Parameter(self.scale * torch.rand(in_channels, out_channels, modes1, modes2, dtype=torch.cfloat))

    def forward(self, x):
        batchsize = x.shape[0]
        x_ft = torch.fft.rfft2(x)
        out_ft = torch.zeros(batchsize, self.out_channels, x.size(-2), x.size(-1) // 2 + 1, dtype=torch.cfloat, device=x.device)
        out_ft[:, :, :self.modes1, :self.modes2] = torch.einsum("bixy,ioxy->boxy", x_ft[:, :, :self.modes1, :self.modes2], self.weights1)
        out_ft[:, :, -self.modes1:, :self.modes2] = torch.einsum("bixy,ioxy->boxy", x_ft[:, :, -self.modes1:, :self.modes2], self.weights2)
        return torch.fft.irfft2(out_ft, s=(x.size(-2), x.size(-1)))

class Net2d(nn.Module):
    def __init__(self, modes, width):
        super().__init__()
        self.width = width
        self.fc0 = nn.Linear(3, width)
        self.conv0 = SpectralConv2d(width, width, modes, modes)
        self.w0 = nn.Conv1d(width, width, 1)
        self.fc1 = nn.Linear(width, 32)
        self.fc2 = nn.Linear(32, 1)

    def forward(self, x):
        batchsize, size_x, size_y = x.shape[0], x.shape[1], x.shape[2]
        x = self.fc0(x).permute(0, 3, 1, 2)
        x1 = self.conv0(x)
        x2 = self.w0(x.reshape(batchsize, self.width, -1)).reshape(batchsize, self.width, size_x, size_y)
        x = F.relu(x1 + x2).permute(0, 2, 3, 1)
        return self.fc2(F.relu(self.fc1(x))).squeeze()

ntrain, s, batch_size = 8, 16, 4
x_train = torch.rand(ntrain, s, s)
y_train = torch.rand(ntrain, s, s)
x_normalizer = UnitGaussianNormalizer(x_train)
x_train = x_normalizer.encode(x_train)
y_normalizer = UnitGaussianNormalizer(y_train)
y_train = y_normalizer.encode(y_train)

gx, gy = torch.meshgrid(torch.linspace(0, 1, s), torch.linspace(0, 1, s), indexing="xy")
grid = torch.stack([gx, gy], dim=-1).reshape(1, s, s, 2)
x_train = torch.cat([x_train.reshape(ntrain, s, s, 1), grid.repeat(ntrain, 1, 1, 1)], dim=3)
train_loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x_train, y_train),
                                           batch_size=batch_size, shuffle=True)

model = Net2d(modes=4, width=8).to(DEVICE)        # model.cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=0.001, weight_decay=1e-4)
myloss = LpLoss(size_average=False)
y_normalizer.cuda()
'''
CELL = '''
model.train()
for x, y in train_loader:
    x, y = x.to(DEVICE), y.to(DEVICE)          # x.cuda(), y.cuda()
    optimizer.zero_grad()
    out = model(x)
    out = y_normalizer.decode(out)
    y = y_normalizer.decode(y)
    loss = myloss(out.view(batch_size, -1), y.view(batch_size, -1))
    loss.backward()
    optimizer.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
