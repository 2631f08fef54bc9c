"""darts NBEATSModel.fit: the past covariates stay float64 while the target series is float32.

Source: https://github.com/h3ik0th/ES_energy_Transformer/issues/1
Running the repo's N-BEATS notebook, `model.fit(series=ts_ttrain, past_covariates=cov_t, ...)`
fails with "expected scalar type Float but found Double". The user fixed it by building the
covariate frames with `astype(np.float32)` instead of `applymap(np.float32)` (which leaves
float64 columns): darts builds the network in the target series' dtype (float32) and stacks target
and past covariates into one input array, which becomes float64 when the covariates are.
Stand-ins: a small TimeSeries over a numpy array, an N-BEATS generic block stack, and an
NBEATSModel.fit that mirrors darts' sequential-dataset stacking; plain dicts of numpy columns
stand in for the pandas frames. CPU (dtype bug only).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn

class TimeSeries:
    def __init__(self, values):
        self._values = values if values.ndim == 2 else values[:, None]

    @classmethod
    def from_dataframe(cls, df):
        """df: {column: 1-D array}, standing in for the pandas frame"""
        return cls(np.stack(list(df.values()), axis=1))

    def values(self):
        return self._values

    def astype(self, dtype):
        return TimeSeries(self._values.astype(dtype))

    @property
    def dtype(self):
        return self._values.dtype

class _Block(nn.Module):
    def __init__(self, in_len, out_len, width):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(in_len, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU())
        self.backcast = nn.Linear(width, in_len)
        self.forecast = nn.Linear(width, out_len)

    def forward(self, x):
        h = self.fc(x)
        return self.backcast(h), self.forecast(h)

class _NBEATSModule(nn.Module):
    def __init__(self, in_len, out_len, n_blocks=2, width=32):
        super().__init__()
        self.blocks = nn.ModuleList([_Block(in_len, out_len, width) for _ in range(n_blocks)])

    def forward(self, x):
        y = 0
        for block in self.blocks:
            b, f = block(x)
            x = x - b
            y = y + f
        return y

class NBEATSModel:
    def __init__(self, input_chunk_length, output_chunk_length, n_epochs=1, batch_size=16):
        self.icl, self.ocl, self.n_epochs, self.batch_size = input_chunk_length, output_chunk_length, n_epochs, batch_size

    def _samples(self, series, past_covariates):
        target = series.values()
        stacked = np.concatenate([target, past_covariates.values()], axis=1)   # past target + covariates
        xs, ys = [], []
        for i in range(len(target) - self.icl - self.ocl + 1):
            xs.append(stacked[i:i + self.icl].reshape(-1))
            ys.append(target[i + self.icl:i + self.icl + self.ocl].reshape(-1))
        return torch.from_numpy(np.stack(xs)), torch.from_numpy(np.stack(ys))

    def fit(self, series, past_covariates=None, val_series=None, val_past_covariates=None):
        x, y = self._samples(series, past_covariates)
        dtype = torch.float64 if series.dtype == np.float64 else torch.float32
        self.model = _NBEATSModule(x.shape[1], y.shape[1]).to(dtype)      # built in the series' dtype
        optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-3)
        for _ in range(self.n_epochs):
            for i in range(0, len(x), self.batch_size):
                optimizer.zero_grad()
                loss = nn.functional.mse_loss(self.model(x[i:i + self.batch_size]), y[i:i + self.batch_size])
                loss.backward()
                optimizer.step()
        return self

rng = np.random.default_rng(0)
df_t = {"load": rng.normal(size=200).astype(np.float32)}                     # .astype(np.float32)
df_cov = {"temp": rng.normal(size=200), "hour": (np.arange(200) % 24).astype(np.float64)}  # applymap(np.float32) left float64
ts_ttrain = TimeSeries.from_dataframe(df_t)
cov_t = TimeSeries.from_dataframe(df_cov)
model = NBEATSModel(input_chunk_length=24, output_chunk_length=12)
'''
CELL = '''
model.fit(series=ts_ttrain, past_covariates=cov_t)
'''
EXPECT_ERROR = ("same dtype", "expected scalar type", "should be the same")
CULPRITS = ["cov_t"]
FIX = "namespace"
REFERENCE_FIX = '''
cov_t = cov_t.astype(np.float32)
'''
REFERENCE_EDIT = None
CLEAN = False
