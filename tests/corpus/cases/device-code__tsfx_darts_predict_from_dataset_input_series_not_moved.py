"""darts N-BEATS `predict` on CUDA: `predict_from_dataset` feeds the CPU `input_series` batch to the GPU network.

Source: https://github.com/unit8co/darts/pull/388
Running the darts example 02-multi-time-series-and-covariates on CUDA, `pred = model_air.predict(36)`
failed inside `_produce_predict_output` -> N-BEATS `layer(x)` with "Tensor for argument #2 'mat1' is
on CPU, but expected it to be on GPU". The PR's author found the cause in `predict_from_dataset`:
`input_series = batch_tuple[0]` "missed operation of to device", fixed to
`input_series = batch_tuple[0].to(self.device)`. Stand-ins: a generic N-BEATS network and a
TorchForecastingModel whose fit moves batches to the device and whose predict path
(`predict_from_dataset` -> `_predict_batch_block_model` -> `_produce_predict_output`) is darts
0.9's, without covariates; backward/step left out (fake cuda has no autograd).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class _Block(nn.Module):
    def __init__(self, input_chunk_length, target_length, layer_width=64, num_layers=2):
        super().__init__()
        self.relu = nn.ReLU()
        self.linear_layer_stack_list = nn.ModuleList(
            [nn.Linear(input_chunk_length, layer_width)] +
            [nn.Linear(layer_width, layer_width) for _ in range(num_layers - 1)])
        self.backcast_linear_layer = nn.Linear(layer_width, input_chunk_length)
        self.forecast_linear_layer = nn.Linear(layer_width, target_length)

    def forward(self, x):
        for layer in self.linear_layer_stack_list:
            x = self.relu(layer(x))
        return self.backcast_linear_layer(x), self.forecast_linear_layer(x)

class _NBEATSModule(nn.Module):
    def __init__(self, input_chunk_length, target_length, num_blocks=3):
        super().__init__()
        self.blocks_list = nn.ModuleList([_Block(input_chunk_length, target_length) for _ in range(num_blocks)])

    def forward(self, x):
        x = x[:, :, 0]
        y = 0
        for block in self.blocks_list:
            x_hat, y_hat = block(x)
            x = x - x_hat
            y = y + y_hat
        return y.unsqueeze(-1)

class NBEATSModel:
    def __init__(self, input_chunk_length, output_chunk_length, n_epochs=1, batch_size=32, torch_device_str="cuda:0"):
        self.input_chunk_length, self.output_chunk_length = input_chunk_length, output_chunk_length
        self.n_epochs, self.batch_size = n_epochs, batch_size
        self.device = torch.device(torch_device_str)
        self.first_prediction_index = 0
        self.output_dim = 1
        self.model = _NBEATSModule(input_chunk_length, output_chunk_length).to(self.device)

    def fit(self, series):
        self.training_series = series
        v = torch.from_numpy(series).float()
        n = len(v) - self.input_chunk_length - self.output_chunk_length + 1
        x = torch.stack([v[i:i + self.input_chunk_length] for i in range(n)])
        y = torch.stack([v[i + self.input_chunk_length:i + self.input_chunk_length + self.output_chunk_length] for i in range(n)])
        for epoch in range(self.n_epochs):
            for i in range(0, n, self.batch_size):
                data, target = x[i:i + self.batch_size].to(self.device), y[i:i + self.batch_size].to(self.device)
                loss = nn.functional.mse_loss(self.model(data), target)
                # loss.backward(); optimizer.step()  -- left out of the stand-in
        return self

    def predict(self, n, series=None):
        series = self.training_series if series is None else series
        input_series_dataset = [torch.from_numpy(series[-self.input_chunk_length:]).float()]
        return self.predict_from_dataset(n, input_series_dataset)[0]

    def predict_from_dataset(self, n, input_series_dataset, roll_size=None):
        self.model.eval()
        roll_size = self.output_chunk_length if roll_size is None else roll_size
        pred_loader = [(torch.stack(input_series_dataset), list(range(len(input_series_dataset))))]
        predictions = []
        with torch.no_grad():
            for batch_tuple in pred_loader:
                input_series = batch_tuple[0]
                batch_prediction = self._predict_batch_block_model(n, input_series, None, roll_size)
                batch_prediction = torch.cat(batch_prediction, dim=1)
                predictions.append(batch_prediction)
        return predictions

    def _predict_batch_block_model(self, n, input_series, cov_future, roll_size):
        batch_prediction = []
        out = self._produce_predict_output(input_series)
        batch_prediction.append(out)
        prediction_length = roll_size
        while prediction_length < n:
            input_series = torch.cat([input_series[:, roll_size:, :], out], dim=1)
            out = self._produce_predict_output(input_series)
            batch_prediction.append(out)
            prediction_length += roll_size
        return batch_prediction

    def _produce_predict_output(self, input):
        return self.model(input)

t = np.arange(144, dtype=np.float32)
series_air_scaled = ((100 + 2 * t + 30 * np.sin(2 * np.pi * t / 12)) / 500).astype(np.float32)[:, None]
model_air = NBEATSModel(input_chunk_length=24, output_chunk_length=12, n_epochs=1)
model_air.fit(series_air_scaled)
'''
CELL = '''
pred = model_air.predict(n=36)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model_air"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("input_series = batch_tuple[0]", "input_series = batch_tuple[0].to(self.device)")
CLEAN = False
