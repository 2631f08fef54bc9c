"""pytorch-forecasting `predict` on a GPU model: `_torch_cat_na` pads shorter batches with `torch.full(..., device=xi.device)`.

Source: https://github.com/sktime/pytorch-forecasting/blob/main/pytorch_forecasting/models/base/_base_model.py
The current `_torch_cat_na` concatenates per-batch outputs whose decoder lengths differ by padding
each shorter output with `torch.full((xi.shape[0], max_first_len - xi.shape[1], *xi.shape[2:]),
float("nan"), device=xi.device)`. Look-alike: a NaN filler tensor made inside a helper from shapes
alone, next to GPU outputs -- it takes the output's device, so the concatenation runs. Stand-ins:
`_torch_cat_na` (concatenation part) as in pytorch-forecasting and a tiny encoder/decoder network
whose predict loop moves each batch to the model's device.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def _torch_cat_na(x):
    if x[0].ndim > 1:
        first_lens = [xi.shape[1] for xi in x]
        max_first_len = max(first_lens)
        if max_first_len > min(first_lens):
            x = [
                (
                    xi
                    if xi.shape[1] == max_first_len
                    else torch.cat(
                        [
                            xi,
                            torch.full(
                                (xi.shape[0], max_first_len - xi.shape[1], *xi.shape[2:]),
                                float("nan"),
                                device=xi.device,
                            ),
                        ],
                        dim=1,
                    )
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

    def predict(self, dataloader):
        self.eval()
        output = []
        with torch.no_grad():
            for x, _ in dataloader:
                x = {k: v.to(self.device) for k, v in x.items()}
                output.append(self(x)["prediction"][..., 3])
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
print(predictions.shape, predictions.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
