"""darts <= 0.10.1 `fit(..., val_series=...)` on a GPU: `_evaluate_validation_loss` feeds the CPU validation batch to the GPU network.

Source: https://github.com/unit8co/darts/issues/492
"Tensor for argument #2 'mat1' is on CPU, but expected it to be on GPU (while checking arguments for
addmm)" when fitting with a validation set on a GPU. The maintainer read the stack trace:
`torch_forecasting_model.py` line 850 "is not sending the validation set to the correct device" --
in `_evaluate_validation_loss` the training loop's `train_batch = self._batch_to_device(train_batch)`
has no counterpart for `val_batch`; 0.11.0 added `val_batch = self._batch_to_device(val_batch)`.
The thread does not show the user's model: a block (N-BEATS-like MLP) model stands in, with darts
0.10.1's `_train`/`_evaluate_validation_loss`/`_batch_to_device`; `loss.backward()`/`.item()` are
left out (fake cuda has no autograd and no `.item()`).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class _NBEATSModule(nn.Module):
    def __init__(self, input_chunk_length, output_chunk_length, layer_width=64):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(input_chunk_length, layer_width), nn.ReLU(),
                                nn.Linear(layer_width, layer_width), nn.ReLU())
        self.forecast = nn.Linear(layer_width, output_chunk_length)

    def forward(self, x):
        return self.forecast(self.fc(x[:, :, 0])).unsqueeze(-1)

class NBEATSModel:
    def __init__(self, input_chunk_length, output_chunk_length, n_epochs=1, batch_size=32, torch_device_str="cuda:0"):
        self.input_chunk_length, self.output_chunk_length = input_chunk_length, output_chunk_length
        self.n_epochs, self.batch_size = n_epochs, batch_size
        self.device = torch.device(torch_device_str)
        self.model = _NBEATSModule(input_chunk_length, output_chunk_length).to(self.device)
        self.criterion = nn.MSELoss()

    def _loader(self, series):
        v = torch.from_numpy(series).float()
        n = len(v) - self.input_chunk_length - self.output_chunk_length + 1
        past = torch.stack([v[i:i + self.input_chunk_length] for i in range(n)])
        future = torch.stack([v[i + self.input_chunk_length:i + self.input_chunk_length + self.output_chunk_length] for i in range(n)])
        return [(past[i:i + self.batch_size], None, future[i:i + self.batch_size]) for i in range(0, n, self.batch_size)]

    def _batch_to_device(self, batch):
        batch = [elem.to(self.device) if isinstance(elem, torch.Tensor) else elem for elem in batch]
        return tuple(batch)

    def _produce_train_output(self, input_batch):
        past_target, past_covariate = input_batch
        inpt = torch.cat([past_target, past_covariate], dim=2) if past_covariate is not None else past_target
        return self.model(inpt)

    def _compute_loss(self, output, target):
        return self.criterion(output, target)

    def _train(self, train_loader, val_loader):
        for epoch in range(self.n_epochs):
            total_loss = 0
            self.model.train()
            for batch_idx, train_batch in enumerate(train_loader):
                train_batch = self._batch_to_device(train_batch)
                output = self._produce_train_output(train_batch[:-1])
                target = train_batch[-1]
                loss = self._compute_loss(output, target)
                # loss.backward(); optimizer.step(); total_loss += loss.item()  -- left out of the stand-in
            if val_loader is not None:
                validation_loss = self._evaluate_validation_loss(val_loader)

    def _evaluate_validation_loss(self, val_loader):
        total_loss = 0
        self.model.eval()
        with torch.no_grad():
            for batch_idx, val_batch in enumerate(val_loader):
                output = self._produce_train_output(val_batch[:-1])
                target = val_batch[-1]
                loss = self._compute_loss(output, target)
                total_loss = total_loss + loss          # darts: total_loss += loss.item()
        return total_loss / (batch_idx + 1)

    def fit(self, series, val_series=None, verbose=False):
        train_loader = self._loader(series)
        val_loader = self._loader(val_series) if val_series is not None else None
        self._train(train_loader, val_loader)
        return self

t = np.arange(400)
series = (np.sin(2 * np.pi * t / 24) + 0.01 * t).astype(np.float32)[:, None]
train, val = series[:320], series[320:]
model = NBEATSModel(input_chunk_length=24, output_chunk_length=12, n_epochs=1)
'''
CELL = '''
model.fit(train, val_series=val, verbose=True)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """                output = self._produce_train_output(val_batch[:-1])""",
    """                val_batch = self._batch_to_device(val_batch)
                output = self._produce_train_output(val_batch[:-1])""",
)
CLEAN = False
