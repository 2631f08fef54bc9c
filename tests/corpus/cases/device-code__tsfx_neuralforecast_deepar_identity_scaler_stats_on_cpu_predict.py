"""neuralforecast DeepAR on a GPU with the default identity scaler: `nf.predict()` mixes CPU `x_scale`/`x_shift` into the GPU sample path.

Source: https://github.com/Nixtla/neuralforecast/issues/711
"If the input data is not scaled (scaler='identity' or None) and if the model is fit with a
DistributionLoss on a GPU, we end up with a device error when predicting ... the case when you
call DeepAR with its default values." `identity_statistics` returns `torch.zeros(shape)` /
`torch.ones(shape)` made on the CPU, and `DeepAR.forward` takes `y_scale`/`y_loc` from
`self.scaler.x_scale`/`x_shift` and multiplies the GPU decoder output by them in
`scale_decouple`. A commenter in the thread patched the device of loc/scale in
`normal_scale_decouple`; the maintainers' commit "DeepAR device quick fix" (PR #761, Aug 2023)
moved `y_scale` and `y_loc` to `encoder_input.device` in `DeepAR.forward` -- the reference edit
here (training already did this in `_inv_normalization`). Stand-ins: TemporalNorm/identity scaler, a Normal DistributionLoss (DeepAR's
default is StudentT), DeepAR's recursive forward of 1.6.1 (outputs stacked instead of written
into `y_hat`; `validate_args=False` on the Normal), and a NeuralForecast core; backward/step left
out (fake cuda has no autograd).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal

def identity_statistics(x, mask, dim=-1, eps=1e-6):
    shape = list(x.shape)
    shape[dim] = 1
    x_shift = torch.zeros(shape)
    x_scale = torch.ones(shape)
    return x_shift, x_scale

def std_statistics(x, mask, dim=-1, eps=1e-6):
    x_means = (x * mask).sum(dim=dim, keepdim=True) / mask.sum(dim=dim, keepdim=True)
    x_stds = torch.sqrt(((x - x_means) ** 2 * mask).sum(dim=dim, keepdim=True) / mask.sum(dim=dim, keepdim=True))
    return x_means, x_stds + eps

def identity_scaler(x, x_shift, x_scale):
    return x

def std_scaler(x, x_means, x_stds):
    return (x - x_means) / x_stds

class TemporalNorm(nn.Module):
    def __init__(self, scaler_type="robust", dim=-1, eps=1e-6):
        super().__init__()
        compute_statistics = {None: identity_statistics, "identity": identity_statistics, "standard": std_statistics}
        scalers = {None: identity_scaler, "identity": identity_scaler, "standard": std_scaler}
        self.compute_statistics = compute_statistics[scaler_type]
        self.scaler = scalers[scaler_type]
        self.scaler_type, self.dim, self.eps = scaler_type, dim, eps

    def transform(self, x, mask):
        x_shift, x_scale = self.compute_statistics(x=x, mask=mask, dim=self.dim, eps=self.eps)
        self.x_shift = x_shift
        self.x_scale = x_scale
        return self.scaler(x, x_shift, x_scale)

def normal_scale_decouple(output, loc=None, scale=None, eps: float = 0.2):
    mean, std = output
    std = F.softplus(std)
    if (loc is not None) and (scale is not None):
        mean = (mean * scale) + loc
        std = (std + eps) * scale
    return (mean, std)

class DistributionLoss(nn.Module):
    def __init__(self, distribution="Normal", level=[80, 90]):
        super().__init__()
        qs = sorted([0.5] + [50 - l / 2 for l in level] + [50 + l / 2 for l in level])
        qs = [q / 100 if q > 1 else q for q in qs]
        self.quantiles = nn.Parameter(torch.tensor(qs), requires_grad=False)
        self.outputsize_multiplier = 2
        self.scale_decouple = normal_scale_decouple

    def domain_map(self, input):
        return input[..., 0], input[..., 1]

    def sample(self, distr_args, num_samples=1):
        distr = Normal(*distr_args, validate_args=False)
        samples = distr.sample((num_samples,))          # [num_samples, B, 1]
        return samples.permute(1, 2, 0), None, None

    def __call__(self, y, distr_args, mask=None):
        return -Normal(*distr_args, validate_args=False).log_prob(y).mean()

class DeepAR(nn.Module):
    def __init__(self, h, input_size, lstm_hidden_size=32, trajectory_samples=20, loss=None,
                 scaler_type="identity", max_steps=1000, accelerator="cpu"):
        super().__init__()
        self.h, self.input_size = h, input_size
        self.trajectory_samples = trajectory_samples
        self.loss = loss if loss is not None else DistributionLoss(distribution="Normal", level=[80, 90])
        self.scaler = TemporalNorm(scaler_type=scaler_type, dim=1)
        self.hist_encoder = nn.LSTM(input_size=1, hidden_size=lstm_hidden_size, batch_first=True)
        self.decoder = nn.Linear(lstm_hidden_size, self.loss.outputsize_multiplier)
        self.max_steps = max_steps
        self.accelerator = accelerator

    def _normalization(self, windows, y_idx=0):
        temporal = windows["temporal"]
        mask = windows["temporal_mask"]
        windows["temporal"] = self.scaler.transform(x=temporal, mask=mask)
        return windows

    def _inv_normalization(self, y_hat, temporal_cols, y_idx=0):
        y_scale = self.scaler.x_scale[:, :, [temporal_cols.index("y")]].squeeze(-1)
        y_loc = self.scaler.x_shift[:, :, [temporal_cols.index("y")]].squeeze(-1)
        y_loc = y_loc.to(y_hat.device)
        y_scale = y_scale.to(y_hat.device)
        return y_hat, y_loc, y_scale

    def train_step(self, windows):
        windows = self._normalization(windows)
        insample_y = windows["temporal"][:, :-1, :1]
        outsample_y = windows["temporal"][:, 1:, 0]
        hidden_state, _ = self.hist_encoder(insample_y)
        output = self.loss.domain_map(self.decoder(hidden_state))
        _, y_loc, y_scale = self._inv_normalization(y_hat=outsample_y, temporal_cols=windows["temporal_cols"])
        distr_args = self.loss.scale_decouple(output=output, loc=y_loc, scale=y_scale)
        return self.loss(y=outsample_y, distr_args=distr_args)

    def forward(self, windows_batch):
        encoder_input = windows_batch["insample_y"][:, :, None]        # [B, L, 1]
        temporal_cols = windows_batch["temporal_cols"]
        batch_size, input_size = encoder_input.shape[:2]

        _, h_c_tuple = self.hist_encoder(encoder_input)
        h_n = torch.repeat_interleave(h_c_tuple[0], self.trajectory_samples, 1)
        c_n = torch.repeat_interleave(h_c_tuple[1], self.trajectory_samples, 1)

        # Scales for inverse normalization
        y_scale = self.scaler.x_scale[:, 0, [temporal_cols.index("y")]].squeeze(-1)
        y_loc = self.scaler.x_shift[:, 0, [temporal_cols.index("y")]].squeeze(-1)
        y_scale = torch.repeat_interleave(y_scale, self.trajectory_samples, 0)
        y_loc = torch.repeat_interleave(y_loc, self.trajectory_samples, 0)

        quantiles = self.loss.quantiles.to(encoder_input.device)
        y_hat = []
        for tau in range(self.h):
            last_layer_h = h_n[-1]
            output = self.decoder(last_layer_h)
            output = self.loss.domain_map(output)
            distr_args = self.loss.scale_decouple(output=output, loc=y_loc, scale=y_scale)
            distr_args = tuple(arg.unsqueeze(-1) for arg in distr_args)
            samples_tau, _, _ = self.loss.sample(distr_args=distr_args, num_samples=1)
            samples_tau = samples_tau.reshape(batch_size, self.trajectory_samples)
            sample_mean = torch.mean(samples_tau, dim=-1)
            y_hat.append(sample_mean)
            if tau + 1 == self.h:
                continue
            encoder_input = self.scaler.scaler(samples_tau.flatten(), y_loc, y_scale)
            encoder_input = encoder_input[:, None, None]
            _, h_c_tuple = self.hist_encoder(encoder_input, (h_n, c_n))
            h_n, c_n = h_c_tuple
        return torch.stack(y_hat, dim=1)                                # [B, h]

    def fit(self, dataset):
        device = torch.device("cuda:0" if self.accelerator == "gpu" else "cpu")
        self.to(device)                                                 # the Lightning trainer's accelerator
        for step in range(2):
            windows = {k: v.to(device) if torch.is_tensor(v) else v for k, v in dataset.train_windows().items()}
            loss = self.train_step(windows)
            # self.manual_backward(loss); optimizer.step()  -- left out of the stand-in
        return self

    def predict(self, dataset):
        self.eval()
        device = next(self.parameters()).device
        windows = {k: v.to(device) if torch.is_tensor(v) else v for k, v in dataset.predict_windows(self.input_size).items()}
        windows = self._normalization(windows)
        windows_batch = {"insample_y": windows["temporal"][:, :, 0], "temporal_cols": windows["temporal_cols"]}
        with torch.no_grad():
            return self(windows_batch)

class TimeSeriesDataset:
    def __init__(self, y):                       # y: [n_series, T]
        self.y = torch.as_tensor(y, dtype=torch.float32)
        self.temporal_cols = ["y", "available_mask"]

    def train_windows(self):
        t = self.y[:, :, None]
        return {"temporal": t, "temporal_mask": torch.ones_like(t), "temporal_cols": self.temporal_cols}

    def predict_windows(self, input_size):
        t = self.y[:, -input_size:, None]
        return {"temporal": t, "temporal_mask": torch.ones_like(t), "temporal_cols": self.temporal_cols}

class NeuralForecast:
    def __init__(self, models, freq):
        self.models, self.freq = models, freq

    def fit(self, df):
        self.dataset = TimeSeriesDataset(df)
        for model in self.models:
            model.fit(self.dataset)
        return self

    def predict(self):
        return {type(model).__name__: model.predict(self.dataset) for model in self.models}

t = np.arange(144)
AirPassengersPanel = np.stack([112 + 2.5 * t + 40 * np.sin(2 * np.pi * t / 12),
                               412 + 2.5 * t + 40 * np.sin(2 * np.pi * t / 12)]).astype(np.float32)
Y_df = AirPassengersPanel
nf = NeuralForecast(
    models=[DeepAR(h=12, input_size=48, max_steps=100, accelerator="gpu")],
    freq="M",
)
nf.fit(Y_df)
'''
CELL = '''
Y_hat_df = nf.predict()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["nf.models[0]"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    '''y_scale = self.scaler.x_scale[:, 0, [temporal_cols.index("y")]].squeeze(-1)
        y_loc = self.scaler.x_shift[:, 0, [temporal_cols.index("y")]].squeeze(-1)''',
    '''y_scale = self.scaler.x_scale[:, 0, [temporal_cols.index("y")]].squeeze(-1).to(encoder_input.device)
        y_loc = self.scaler.x_shift[:, 0, [temporal_cols.index("y")]].squeeze(-1).to(encoder_input.device)''',
)
CLEAN = False
