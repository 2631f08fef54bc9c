"""neuralforecast Autoformer on a GPU: the decoder placeholder `x_dec` is built with torch.zeros on the CPU.

Source: https://github.com/Nixtla/neuralforecast/issues/522
Training Autoformer (and, the reporter added, Informer) with the GPU accelerator failed with
"Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!
(when checking argument for argument tensors in method wrapper_CUDA_cat)": forward() makes the
horizon placeholder `x_dec = torch.zeros(size=(len(insample_y), self.h, 1))` without a device and
`torch.cat`s it after the last `label_len` CUDA observations; the fix branch builds it on
`insample_y.device`. Stand-in: Autoformer's forward with its series decomposition, encoder/decoder
reduced to linear maps; "meta" plays the GPU.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class MovingAvg(nn.Module):
    def __init__(self, kernel_size):
        super().__init__()
        self.kernel_size = kernel_size
        self.avg = nn.AvgPool1d(kernel_size=kernel_size, stride=1, padding=0)

    def forward(self, x):
        front = x[:, 0:1, :].repeat(1, (self.kernel_size - 1) // 2, 1)
        end = x[:, -1:, :].repeat(1, (self.kernel_size - 1) // 2, 1)
        x = torch.cat([front, x, end], dim=1)
        return self.avg(x.permute(0, 2, 1)).permute(0, 2, 1)

class SeriesDecomp(nn.Module):
    def __init__(self, kernel_size):
        super().__init__()
        self.moving_avg = MovingAvg(kernel_size)

    def forward(self, x):
        moving_mean = self.moving_avg(x)
        return x - moving_mean, moving_mean

class Autoformer(nn.Module):
    def __init__(self, h, input_size, hidden_size=32, moving_avg=25):
        super().__init__()
        self.h = h
        self.input_size = input_size
        self.label_len = input_size // 2
        self.decomp = SeriesDecomp(moving_avg)
        self.enc_embedding = nn.Linear(1, hidden_size)
        self.dec_embedding = nn.Linear(1, hidden_size)
        self.projection = nn.Linear(hidden_size, 1)

    def forward(self, windows_batch):
        insample_y = windows_batch["insample_y"].unsqueeze(-1)
        x_dec = torch.zeros(size=(len(insample_y), self.h, 1))
        x_dec = torch.cat([insample_y[:, -self.label_len:, :], x_dec], dim=1)
        mean = torch.mean(insample_y, dim=1).unsqueeze(1).repeat(1, self.h, 1)
        zeros = torch.zeros([x_dec.shape[0], self.h, x_dec.shape[2]], device=insample_y.device)
        seasonal_init, trend_init = self.decomp(insample_y)
        trend_init = torch.cat([trend_init[:, -self.label_len:, :], mean], dim=1)
        seasonal_init = torch.cat([seasonal_init[:, -self.label_len:, :], zeros], dim=1)
        enc_out = self.enc_embedding(insample_y).mean(dim=1, keepdim=True)
        dec_out = self.projection(self.dec_embedding(seasonal_init) + enc_out) + trend_init
        return dec_out[:, -self.h:, :].squeeze(-1)

model = Autoformer(h=12, input_size=24).to("meta")      # NeuralForecast(models=[Autoformer(...)], freq="M")
windows_batch = {"insample_y": torch.randn(16, 24, device="meta"),
                 "insample_mask": torch.ones(16, 24, device="meta")}
'''
CELL = '''
y_hat = model(windows_batch)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "x_dec = torch.zeros(size=(len(insample_y), self.h, 1))",
    "x_dec = torch.zeros(size=(len(insample_y), self.h, 1)).to(insample_y.device)",
)
CLEAN = False
