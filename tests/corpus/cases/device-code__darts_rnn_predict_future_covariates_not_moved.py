"""darts RNNModel.predict(n, covariates=...) on the GPU: the future covariates of each batch stay on the CPU.

Source: https://github.com/unit8co/darts/issues/413
Running the 05-RNN-examples notebook on a GPU, `pred_series = model.predict(n=26, covariates=covariates)`
failed in `_predict_batch_recurrent_model` with "All input tensors must be on the same device.
Received cuda:0 and cpu": `predict_from_dataset` moved `input_series = batch_tuple[0].to(self.device)`
but not `cov_future = batch_tuple[1]`, and the recurrent loop `torch.cat`s the last prediction with
the covariates (fixed in develop; PR #425 adds the same `.to(self.device)`). Stand-in: darts'
TorchForecastingModel predict path with its _RNNModule, NumPy arrays instead of TimeSeries;
"meta" plays the GPU.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class _RNNModule(nn.Module):
    def __init__(self, name, input_size, hidden_dim, num_layers, target_size=1):
        super().__init__()
        self.rnn = getattr(nn, name)(input_size, hidden_dim, num_layers, batch_first=True)
        self.V = nn.Linear(hidden_dim, target_size)

    def forward(self, x, h=None):
        out, last_hidden_state = self.rnn(x) if h is None else self.rnn(x, h)
        predictions = self.V(out)
        return predictions, last_hidden_state

class RNNModel:
    def __init__(self, model="LSTM", input_chunk_length=12, hidden_dim=25, n_rnn_layers=1,
                 input_size=2, device="meta"):
        self.device = torch.device(device)
        self.input_chunk_length = input_chunk_length
        self.is_recurrent = True
        self.model = _RNNModule(model, input_size, hidden_dim, n_rnn_layers).to(self.device)

    def _build_inference_dataset(self, n, series, covariates):
        past = np.concatenate([series[-self.input_chunk_length:], covariates[len(series) - self.input_chunk_length:len(series)]], axis=1)
        future = covariates[len(series):len(series) + n]
        return [(torch.from_numpy(past).float().unsqueeze(0), torch.from_numpy(future).float().unsqueeze(0), 0)]

    def _predict_batch_recurrent_model(self, n, input_series, cov_future):
        batch_prediction = []
        out, last_hidden_state = self.model(input_series)
        batch_prediction.append(out[:, -1:, :])
        prediction_length = 1
        while prediction_length < n:
            new_input = (
                torch.cat([out[:, -1:, :], cov_future[:, prediction_length - 1:prediction_length, :]], dim=2)
                if cov_future is not None else out[:, -1:, :]
            )
            out, last_hidden_state = self.model(new_input, last_hidden_state)
            batch_prediction.append(out[:, -1:, :])
            prediction_length += 1
        return torch.cat(batch_prediction, dim=1)

    def predict_from_dataset(self, n, dataset):
        predictions = []
        self.model.eval()
        with torch.no_grad():
            for batch_tuple in dataset:
                input_series = batch_tuple[0].to(self.device)
                cov_future = batch_tuple[1] if len(batch_tuple) == 3 else None
                batch_prediction = self._predict_batch_recurrent_model(n, input_series, cov_future)
                predictions.append(batch_prediction)
        return predictions

    def predict(self, n, series=None, covariates=None):
        dataset = self._build_inference_dataset(n, series, covariates)
        return self.predict_from_dataset(n, dataset)[0]

series_transformed = np.random.rand(120, 1).astype(np.float32)       # monthly air passengers, scaled
covariates = np.random.rand(150, 1).astype(np.float32)               # month-of-year covariate
my_model = RNNModel(model="LSTM", input_chunk_length=14, hidden_dim=25, input_size=2, device="meta")
'''
CELL = '''
pred_series = my_model.predict(n=26, series=series_transformed, covariates=covariates)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["my_model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "cov_future = batch_tuple[1] if len(batch_tuple) == 3 else None",
    "cov_future = batch_tuple[1].to(self.device) if len(batch_tuple) == 3 else None",
)
CLEAN = False
