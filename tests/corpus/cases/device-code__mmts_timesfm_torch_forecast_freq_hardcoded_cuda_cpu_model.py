"""timesfm_torch (a PyTorch port of TimesFM): `forecast` sends its inputs to a hard-coded 'cuda' while the model stays on the CPU.

Source: https://github.com/tangh18/timesfm_torch/issues/5
"Error in the forecast": loading the checkpoint and calling the forecast gives "Expected all tensors
to be on the same device, but found at least two devices, cpu and cuda:0! (when checking argument
for argument index in method wrapper_CUDA__index_select)". The user points at the `.to('cuda')` in
the code; the author answers that the repo assumes every operation runs on a cuda device and that
the code has to be adjusted to other devices. Here the model was left on the CPU and the forecast
moves the frequency ids (the embedding's index) to cuda. Stand-in: a patched-decoder with the
frequency embedding and a `forecast` that hard-codes 'cuda'.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
from torch import nn

class PatchedTimeSeriesDecoder(nn.Module):
    def __init__(self, patch_len=8, horizon_len=16, model_dims=32, num_freqs=3):
        super().__init__()
        self.patch_len = patch_len
        self.input_ff_layer = nn.Linear(2 * patch_len, model_dims)
        self.freq_emb = nn.Embedding(num_freqs, model_dims)
        self.horizon_ff_layer = nn.Linear(model_dims, horizon_len)

    def forward(self, input_ts, input_padding, freq):
        b, t = input_ts.shape
        patched = input_ts.view(b, t // self.patch_len, self.patch_len)
        pads = input_padding.view(b, t // self.patch_len, self.patch_len)
        h = self.input_ff_layer(torch.cat([patched, pads], dim=-1))
        h = h + self.freq_emb(freq)
        return self.horizon_ff_layer(h[:, -1])

class TimesFm:
    def __init__(self, context_len=32, horizon_len=16):
        self.context_len, self.horizon_len = context_len, horizon_len
        self.model = PatchedTimeSeriesDecoder(horizon_len=horizon_len)

    @torch.no_grad()
    def forecast(self, inputs, freq):
        input_ts = torch.tensor(np.stack([x[-self.context_len:] for x in inputs]), dtype=torch.float32).to('cuda:0')
        input_padding = torch.zeros_like(input_ts)
        freq = torch.tensor(freq, dtype=torch.long).reshape(-1, 1).to('cuda:0')
        return self.model(input_ts, input_padding, freq)

tfm = TimesFm()                          # checkpoint loaded, model never moved: stays on the CPU
forecast_input = [np.sin(np.linspace(0, 20, 100)), np.cos(np.linspace(0, 20, 100))]
frequency_input = [0, 1]
'''
CELL = '''
point_forecast = tfm.forecast(forecast_input, freq=frequency_input)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["tfm.model"]
FIX = "namespace"
REFERENCE_FIX = '''
tfm.model = tfm.model.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
