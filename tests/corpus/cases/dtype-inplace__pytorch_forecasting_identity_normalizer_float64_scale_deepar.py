"""pytorch-forecasting DeepAR predict(): an identity TorchNormalizer's NumPy float64 center/scale make the rescaled targets Double.

Source: https://github.com/sktime/pytorch-forecasting/issues/998
The reporter traced a DeepAR inference failure to `TorchNormalizer(method="identity", center=False)`:
fitted on pandas/NumPy data it sets `self.center_ = np.zeros(...)` and `self.scale_ = np.ones(...)`,
float64, so the `target_scale` in every batch is a DoubleTensor; the rescaled predictions fed back
in `decode_one` (`x[:, 0, target_pos] = lagged_targets[-1]`) are float64 while the float32 input
vector receives them: "Index put requires the source and destination dtypes match, got Float for
the destination and Double for the source" (also #1111). Stand-in: the normalizer's identity
branch, a batch built as the dataset does, and DeepAR's autoregressive decode with an LSTM.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import numpy as np
import torch
from torch import nn

class TorchNormalizer:
    def __init__(self, method="standard", center=True):
        self.method, self.center = method, center

    def fit(self, y):
        self._set_parameters(y_center=y, y_scale=y)
        return self

    def _set_parameters(self, y_center, y_scale):
        if self.method == "identity":
            if isinstance(y_center, torch.Tensor):
                self.center_ = torch.zeros(y_center.size()[:-1])
                self.scale_ = torch.ones(y_scale.size()[:-1])
            elif isinstance(y_center, np.ndarray):
                self.center_ = np.zeros(y_center.shape[:-1])
                self.scale_ = np.ones(y_scale.shape[:-1])
            else:
                self.center_, self.scale_ = 0.0, 1.0
        else:
            self.center_, self.scale_ = np.mean(y_center), np.std(y_scale) + 1e-8

    def get_parameters(self):
        return torch.stack([torch.as_tensor(self.center_), torch.as_tensor(self.scale_)], dim=-1)

    def transform(self, y):
        return (torch.as_tensor(y, dtype=torch.float32) - torch.as_tensor(self.center_)) / torch.as_tensor(self.scale_)

class DeepAR(nn.Module):
    def __init__(self, n_reals=4, hidden_size=16, target_positions=(0,)):
        super().__init__()
        self.target_positions = torch.tensor(target_positions)
        self.rnn = nn.LSTM(n_reals, hidden_size, batch_first=True)
        self.distribution_projector = nn.Linear(hidden_size, 2)

    def transform_output(self, prediction, target_scale):
        return prediction * target_scale[:, 1].view(-1, 1) + target_scale[:, 0].view(-1, 1)

    def decode_autoregressive(self, input_vector, first_target, hidden_state, target_scale, n_decoder_steps):
        output = []
        lagged_targets = [first_target]
        for idx in range(n_decoder_steps):
            x = input_vector[:, [idx]]
            x[:, 0, self.target_positions] = lagged_targets[-1]
            out, hidden_state = self.rnn(x, hidden_state)
            loc = self.distribution_projector(out)[..., 0]
            prediction = self.transform_output(loc, target_scale)
            output.append(prediction)
            lagged_targets.append(prediction)
        return torch.stack(output, dim=1)

    def predict(self, x, n_decoder_steps=6):
        _, hidden_state = self.rnn(x["encoder_cont"])
        first_target = x["encoder_cont"][:, -1, self.target_positions]
        return self.decode_autoregressive(x["decoder_cont"].clone(), first_target, hidden_state,
                                          x["target_scale"], n_decoder_steps)

occupancy = np.random.rand(200)                       # Traffic: values between 0.0 and 1.0
normalizer = TorchNormalizer(method="identity", center=False).fit(occupancy)

batch_size = 8
x = {
    "encoder_cont": torch.randn(batch_size, 24, 4),
    "decoder_cont": torch.randn(batch_size, 6, 4),
    "target_scale": normalizer.get_parameters().expand(batch_size, 2),
}
model = DeepAR().eval()
'''
CELL = '''
with torch.no_grad():
    predictions = model.predict(x)
'''
EXPECT_ERROR = "Index put requires the source and destination dtypes match"
CULPRITS = ["x['target_scale']"]
FIX = "namespace"
REFERENCE_FIX = '''
x["target_scale"] = x["target_scale"].float()
'''
REFERENCE_EDIT = None
CLEAN = False
