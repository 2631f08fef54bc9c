"""pytorch-forecasting `predict` on a GPU model: `_torch_cat_na` pads the per-batch outputs with a CPU `torch.full`.

Source: https://github.com/sktime/pytorch-forecasting/issues/365
With the trained model on the GPU, `model.predict(...)` (default mode and mode="raw") fails in
`output = _torch_cat_na(output)`: batches with different decoder lengths are padded with
`torch.full((xi.size(0), max_first_len - xi.size(1), *xi.shape[2:]), float("nan"))` -- made on the
CPU -- and concatenated with the GPU outputs ("All input tensors must be on the same device.
Received cuda:0 and cpu" in torch 1.7). The maintainer fixed `_torch_cat_na` to create the padding
on `xi.device`. Stand-ins: a tiny TFT-like network and a `predict` loop that moves each batch to the
model's device and collects the outputs as 0.8.3 did.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

def _torch_cat_na(x):
    if x[0].ndim > 1:
        first_lens = [xi.shape[1] for xi in x]
        max_first_len = max(first_lens)
        if max_first_len > min(first_lens):
            x = [
                xi if xi.shape[1] == max_first_len
                else torch.cat(
                    [xi, torch.full((xi.size(0), max_first_len - xi.size(1), *xi.shape[2:]), float("nan"))],
                    dim=1,
                )
                for xi in x
            ]
    return torch.cat(x, dim=0)

class TemporalFusionTransformer(nn.Module):
    def __init__(self, n_features=4, hidden_size=16, output_size=7):
        super().__init__()
        self.encoder = nn.LSTM(n_features, hidden_size, batch_first=True)
        self.output_layer = nn.Linear(hidden_size, output_size)

    def forward(self, x):
        enc, _ = self.encoder(x["encoder_cont"])
        last = enc[:, -1:, :].expand(-1, x["decoder_cont"].shape[1], -1)
        return {"prediction": self.output_layer(last)}

    @property
    def device(self):
        return next(self.parameters()).device

    def predict(self, dataloader, mode="prediction"):
        self.eval()
        output = []
        with torch.no_grad():
            for x, _ in dataloader:
                x = {k: v.to(self.device) for k, v in x.items()}
                out = self(x)["prediction"]
                if mode == "prediction":
                    out = out[..., 3]              # the median quantile
                output.append(out)
        return _torch_cat_na(output)

def batch(bs, enc_len, dec_len):
    return ({"encoder_cont": torch.randn(bs, enc_len, 4), "decoder_cont": torch.randn(bs, dec_len, 4)},
            torch.randn(bs, dec_len))

val_dataloader = [batch(8, 24, 6), batch(8, 24, 6), batch(3, 24, 4)]   # last batch: shorter decoder
tft = TemporalFusionTransformer()
tft.to("cuda:0")
'''
CELL = '''
predictions = tft.predict(val_dataloader)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "must be on the same device")
CULPRITS = ["tft"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('torch.full((xi.size(0), max_first_len - xi.size(1), *xi.shape[2:]), float("nan"))',
                  'torch.full((xi.size(0), max_first_len - xi.size(1), *xi.shape[2:]), float("nan"), device=xi.device)')
CLEAN = False
