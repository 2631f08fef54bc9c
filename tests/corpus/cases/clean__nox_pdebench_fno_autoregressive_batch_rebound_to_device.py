"""Look-alike: PDEBench's FNO training loop seeds `pred` from `yy[..., :initial_step, :]`, after `yy` itself was rebound to the device.

Source: https://github.com/pdebench/PDEBench/blob/main/pdebench/models/fno/train.py
In the FNO `run_training` the loader yields CPU `(xx, yy, grid)`, and the loop rebinds all three with
`xx = xx.to(device)`, `yy = yy.to(device)`, `grid = grid.to(device)` before
`pred = yy[..., :initial_step, :]`; the autoregressive `torch.cat((pred, im), -2)` and
`torch.cat((xx[..., 1:, :], im), dim=-2)` then only see on-device tensors, and `SpectralConv1d` builds
`out_ft` with `device=x.device`. (The UNet script's `pred = yy[...]` without the rebinding is the bug
PR #96 reports.) Reduced: FNO1d with two Fourier layers, one epoch over two CPU batches, `.item()`
bookkeeping dropped; the meta device plays cuda.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn

device = torch.device("meta")      # torch.device("cuda" if torch.cuda.is_available() else "cpu")

class SpectralConv1d(nn.Module):
    def __init__(self, in_channels, out_channels, modes1):
        super().__init__()
        self.in_channels, self.out_channels, self.modes1 = in_channels, out_channels, modes1
        self.scale = 1 / (in_channels * out_channels)
        self.weights1 = nn.Parameter(self.scale * torch.rand(in_channels, out_channels, self.modes1, dtype=torch.cfloat))

    def compl_mul1d(self, input, weights):
        return torch.einsum("bix,iox->box", input, weights)

    def forward(self, x):
        batchsize = x.shape[0]
        x_ft = torch.fft.rfft(x)
        out_ft = torch.zeros(batchsize, self.out_channels, x.size(-1) // 2 + 1, device=x.device, dtype=torch.cfloat)
        out_ft[:, :, : self.modes1] = self.compl_mul1d(x_ft[:, :, : self.modes1], self.weights1)
        return torch.fft.irfft(out_ft, n=x.size(-1))

class FNO1d(nn.Module):
    def __init__(self, num_channels, modes=8, width=16, initial_step=10):
        super().__init__()
        self.padding = 2
        self.fc0 = nn.Linear(initial_step * num_channels + 1, width)
        self.conv0 = SpectralConv1d(width, width, modes)
        self.conv1 = SpectralConv1d(width, width, modes)
        self.w0 = nn.Conv1d(width, width, 1)
        self.w1 = nn.Conv1d(width, width, 1)
        self.fc1 = nn.Linear(width, 32)
        self.fc2 = nn.Linear(32, num_channels)

    def forward(self, x, grid):
        x = torch.cat((x, grid), dim=-1)
        x = self.fc0(x).permute(0, 2, 1)
        x = F.pad(x, [0, self.padding])
        x = F.gelu(self.conv0(x) + self.w0(x))
        x = self.conv1(x) + self.w1(x)
        x = x[..., : -self.padding].permute(0, 2, 1)
        x = self.fc2(F.gelu(self.fc1(x)))
        return x.unsqueeze(-2)

def run_training(model, optimizer, train_loader, loss_fn, initial_step, t_train, training_type="autoregressive"):
    model.train()
    for xx, yy, grid in train_loader:
        loss = 0
        xx = xx.to(device)
        yy = yy.to(device)
        grid = grid.to(device)

        # Initialize the prediction tensor
        pred = yy[..., :initial_step, :]
        inp_shape = list(xx.shape)
        inp_shape = inp_shape[:-2]
        inp_shape.append(-1)

        if training_type in ["autoregressive"]:
            for t in range(initial_step, t_train):
                inp = xx.reshape(inp_shape)
                y = yy[..., t : t + 1, :]
                im = model(inp, grid)
                _batch = im.size(0)
                loss += loss_fn(im.reshape(_batch, -1), y.reshape(_batch, -1))
                pred = torch.cat((pred, im), -2)
                xx = torch.cat((xx[..., 1:, :], im), dim=-2)

            _batch = yy.size(0)
            _yy = yy[..., :t_train, :]
            l2_full = loss_fn(pred.reshape(_batch, -1), _yy.reshape(_batch, -1))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    return loss.detach(), l2_full.detach()

initial_step, t_train, num_channels = 10, 13, 1
model = FNO1d(num_channels=num_channels, initial_step=initial_step).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-4)
loss_fn = nn.MSELoss(reduction="mean")
grid = torch.linspace(0, 1, 32).reshape(1, 32, 1).repeat(4, 1, 1)
train_loader = [(torch.randn(4, 32, initial_step, num_channels), torch.randn(4, 32, 20, num_channels), grid)
                for _ in range(2)]
'''
CELL = '''
train_loss, train_l2_full = run_training(model, optimizer, train_loader, loss_fn, initial_step, t_train)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
