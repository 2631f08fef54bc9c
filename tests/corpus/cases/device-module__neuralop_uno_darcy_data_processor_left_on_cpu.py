"""neuraloperator U-NO Darcy-Flow example on cuda: the `DefaultDataProcessor` was never moved, so it sends every batch to "cpu".

Source: https://github.com/neuraloperator/neuraloperator/issues/279
"U-NO on Darcy-Flow (Gallery of examples) don't run on cuda": with `device = 'cuda'` the example's
`model = model.to(device)` and `Trainer(..., device=device, data_processor=data_processor)` failed
with "Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same".
The user: "I think that `data_processor = data_processor.to(device)` needs to be added".
`DefaultDataProcessor.preprocess` moves `x`/`y` to `self.device`, which stays "cpu" (and its
normalizers' buffers with it) until `data_processor.to(device)`. Stand-in: the processor and a
`UnitGaussianNormalizer` as in neuralop, a small U-NO-shaped model whose lifting is a channels-last
`nn.Linear` (as the original UNO/FNO code), spectral convolutions reduced to a channel mixing,
and the Trainer's loop reduced to its preprocess/forward/postprocess/loss steps.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn

class UnitGaussianNormalizer(nn.Module):
    def __init__(self, mean, std, eps=1e-7):
        super().__init__()
        self.register_buffer("mean", mean)
        self.register_buffer("std", std)
        self.eps = eps
    def transform(self, x):
        return (x - self.mean) / (self.std + self.eps)
    def inverse_transform(self, x):
        return x * (self.std + self.eps) + self.mean

class DefaultDataProcessor(nn.Module):
    def __init__(self, in_normalizer=None, out_normalizer=None):
        super().__init__()
        self.in_normalizer = in_normalizer
        self.out_normalizer = out_normalizer
        self.device = "cpu"
        self.model = None
    def to(self, device):
        if self.in_normalizer is not None:
            self.in_normalizer = self.in_normalizer.to(device)
        if self.out_normalizer is not None:
            self.out_normalizer = self.out_normalizer.to(device)
        self.device = device
        return self
    def preprocess(self, data_dict, batched=True):
        x = data_dict["x"].to(self.device)
        y = data_dict["y"].to(self.device)
        if self.in_normalizer is not None:
            x = self.in_normalizer.transform(x)
        if self.out_normalizer is not None and self.training:
            y = self.out_normalizer.transform(y)
        data_dict["x"] = x
        data_dict["y"] = y
        return data_dict
    def postprocess(self, output, data_dict):
        if self.out_normalizer and not self.training:
            output = self.out_normalizer.inverse_transform(output)
        return output, data_dict

class SpectralConv2d(nn.Module):
    """reduced: the Fourier-mode weights act as a channel mixing (no FFT)"""
    def __init__(self, in_channels, out_channels, modes):
        super().__init__()
        self.modes = modes
        scale = 1 / (in_channels * out_channels)
        self.weight = nn.Parameter(scale * torch.rand(in_channels, out_channels))
    def forward(self, x):
        return torch.einsum("bixy,io->boxy", x, self.weight)

class UNO(nn.Module):
    def __init__(self, in_channels, out_channels, hidden_channels, uno_out_channels, uno_n_modes):
        super().__init__()
        self.lifting = nn.Linear(in_channels, hidden_channels)
        chans = [hidden_channels] + uno_out_channels
        self.uno_blocks = nn.ModuleList(SpectralConv2d(a, b, m) for a, b, m in zip(chans[:-1], chans[1:], uno_n_modes))
        self.projection = nn.Linear(chans[-1], out_channels)
    def forward(self, x):
        x = self.lifting(x.permute(0, 2, 3, 1)).permute(0, 3, 1, 2)
        for block in self.uno_blocks:
            x = torch.nn.functional.gelu(block(x))
        return self.projection(x.permute(0, 2, 3, 1)).permute(0, 3, 1, 2)

class LpLoss:
    def __call__(self, y_pred, y, **kwargs):
        diff = torch.linalg.vector_norm((y_pred - y).flatten(1), dim=-1)
        return (diff / torch.linalg.vector_norm(y.flatten(1), dim=-1)).sum()

device = "cuda:0"
x_train = torch.rand(32, 3, 16, 16)
y_train = torch.rand(32, 1, 16, 16)
in_normalizer = UnitGaussianNormalizer(x_train.mean(0, keepdim=True), x_train.std(0, keepdim=True))
out_normalizer = UnitGaussianNormalizer(y_train.mean(0, keepdim=True), y_train.std(0, keepdim=True))
data_processor = DefaultDataProcessor(in_normalizer, out_normalizer)
train_loader = [{"x": x_train[i:i + 8], "y": y_train[i:i + 8]} for i in range(0, 32, 8)]

model = UNO(3, 1, hidden_channels=64, uno_out_channels=[32, 64, 64, 32], uno_n_modes=[5, 5, 5, 5])
model = model.to(device)
train_loss = LpLoss()
'''
CELL = '''
model.train()
data_processor.train()
for idx, sample in enumerate(train_loader):
    sample = data_processor.preprocess(sample)
    out = model(**{"x": sample["x"]})
    out, sample = data_processor.postprocess(out, sample)
    loss = train_loss(out, sample["y"])
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "Input type")
CULPRITS = ["data_processor"]
FIX = "namespace"
REFERENCE_FIX = '''
data_processor = data_processor.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
