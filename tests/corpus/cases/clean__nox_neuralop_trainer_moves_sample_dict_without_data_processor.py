"""Look-alike: neuralop's `Trainer.train_one_batch` gets CPU sample dicts from the loader and, with no data processor, moves every tensor entry to `self.device` itself.

Source: https://github.com/neuraloperator/neuraloperator/blob/main/neuralop/training/trainer.py
The Darcy/Burgers loaders yield dicts `{"x": ..., "y": ...}` on the CPU. When `Trainer(model=model,
n_epochs=..., device=device, data_processor=None)` trains, `train_one_batch` does
`sample = {k: v.to(self.device) for k, v in sample.items() if torch.is_tensor(v)}` before
`out = self.model(**sample)` and `loss = training_loss(out, **sample)`, so the CPU batch dict in the
user's namespace is never what meets the on-device model. Reduced: a one-Fourier-layer FNO that takes
`(x, **kwargs)`, an LpLoss with the library's `(y_pred, y, **kwargs)` call, one epoch; the meta device
plays cuda.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "meta"       # 'cuda' in the examples

class SpectralConv(nn.Module):
    def __init__(self, in_channels, out_channels, n_modes):
        super().__init__()
        self.out_channels, self.n_modes = out_channels, n_modes
        self.weight = nn.Parameter(torch.randn(in_channels, out_channels, n_modes[0], n_modes[1], dtype=torch.cfloat) / (in_channels * out_channels))

    def forward(self, x):
        b, c, h, w = x.shape
        x_ft = torch.fft.rfft2(x, norm="forward")
        out_ft = torch.zeros(b, self.out_channels, h, w // 2 + 1, dtype=torch.cfloat, device=x.device)
        m1, m2 = self.n_modes
        out_ft[:, :, :m1, :m2] = torch.einsum("bixy,ioxy->boxy", x_ft[:, :, :m1, :m2], self.weight)
        return torch.fft.irfft2(out_ft, s=(h, w), norm="forward")

class FNO(nn.Module):
    """Stand-in for neuralop.models.FNO (lifting, one Fourier block, projection)."""
    def __init__(self, n_modes, in_channels, out_channels, hidden_channels):
        super().__init__()
        self.lifting = nn.Conv2d(in_channels, hidden_channels, 1)
        self.conv = SpectralConv(hidden_channels, hidden_channels, n_modes)
        self.skip = nn.Conv2d(hidden_channels, hidden_channels, 1)
        self.projection = nn.Conv2d(hidden_channels, out_channels, 1)

    def forward(self, x, output_shape=None, **kwargs):
        x = self.lifting(x)
        x = F.gelu(self.conv(x) + self.skip(x))
        return self.projection(x)

class LpLoss(object):
    def __init__(self, d=2, p=2):
        self.d, self.p = d, p

    def __call__(self, y_pred, y, **kwargs):
        diff = torch.norm(torch.flatten(y_pred, start_dim=-self.d) - torch.flatten(y, start_dim=-self.d), p=self.p, dim=-1)
        ynorm = torch.norm(torch.flatten(y, start_dim=-self.d), p=self.p, dim=-1)
        return torch.sum(diff / ynorm)

class Trainer:
    """Stand-in for neuralop.training.Trainer (train_one_batch as in the library)."""
    def __init__(self, *, model, n_epochs, device="cpu", data_processor=None, verbose=False):
        self.model, self.n_epochs, self.device = model, n_epochs, device
        self.data_processor = data_processor
        self.regularizer = None

    def train(self, train_loader, optimizer, training_loss):
        self.optimizer = optimizer
        self.model.train()
        for epoch in range(self.n_epochs):
            for idx, sample in enumerate(train_loader):
                loss = self.train_one_batch(idx, sample, training_loss)
                loss.backward()
                self.optimizer.step()
        return loss.detach()

    def train_one_batch(self, idx, sample, training_loss):
        self.optimizer.zero_grad(set_to_none=True)
        if self.data_processor is not None:
            sample = self.data_processor.preprocess(sample)
        else:
            # load data to device if no preprocessor exists
            sample = {k: v.to(self.device) for k, v in sample.items() if torch.is_tensor(v)}
        out = self.model(**sample)
        return training_loss(out, **sample)

train_loader = [{"x": torch.randn(4, 1, 16, 16), "y": torch.randn(4, 1, 16, 16)} for _ in range(2)]
model = FNO(n_modes=(4, 4), in_channels=1, out_channels=1, hidden_channels=8).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=8e-3, weight_decay=1e-4)
l2loss = LpLoss(d=2, p=2)
trainer = Trainer(model=model, n_epochs=1, device=device, data_processor=None)
'''
CELL = '''
last_loss = trainer.train(train_loader=train_loader, optimizer=optimizer, training_loss=l2loss)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
