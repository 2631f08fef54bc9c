"""tangermeme `predict`: int8 one-hot sequences kept on the CPU, each batch cast and moved to the model's GPU.

Source: https://github.com/jmschrei/tangermeme/blob/main/tangermeme/predict.py
`predict(model, X, device=...)` is meant for data sets that do not fit on the GPU: `X` stays on the
CPU (often as int8 to save memory), every batch is upcast with `.type(dtype)` to the model's dtype
and moved to `device`, and the outputs are moved back to the CPU before concatenation. A float32
model on cuda:0 fed an int8 CPU tensor is therefore right. Stand-ins: `predict` and its
model-state guard (without autocast/progress bar), a small BPNet-like model.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import contextlib
import torch
from torch import nn

@contextlib.contextmanager
def _preserve_model_state(model, device):
    original_device = next(model.parameters()).device
    was_training = model.training
    model.to(device).eval()
    try:
        yield
    finally:
        model.to(original_device)
        model.train(was_training)

def predict(model, X, args=None, func=None, batch_size=32, dtype=None, device=None, verbose=False):
    """Stand-in for tangermeme.predict.predict."""
    device = torch.device(device)
    if dtype is None:
        dtype = next(model.parameters()).dtype
    y = []
    with _preserve_model_state(model, device), torch.no_grad():
        batch_size = min(batch_size, X.shape[0])
        for start in range(0, X.shape[0], batch_size):
            end = start + batch_size
            X_ = X[start:end].type(dtype).to(device)
            y_ = model(X_)
            if func is not None:
                y_ = func(y_)
            y.append(y_.cpu())
    return torch.cat(y)

class BPNet(nn.Module):
    def __init__(self, n_filters=8, n_outputs=2):
        super().__init__()
        self.iconv = nn.Conv1d(4, n_filters, kernel_size=7, padding=3)
        self.rconv = nn.Conv1d(n_filters, n_filters, kernel_size=3, padding=2, dilation=2)
        self.linear = nn.Linear(n_filters, n_outputs)

    def forward(self, X):
        h = torch.relu(self.iconv(X))
        h = h + torch.relu(self.rconv(h))
        return self.linear(h.mean(dim=-1))

model = BPNet().to("cuda:0")
idx = torch.randint(0, 4, (40, 100))
X = torch.eye(4, dtype=torch.int8)[idx].transpose(1, 2).contiguous()   # (40, 4, 100) int8 one-hot, CPU
'''
CELL = '''
y = predict(model, X, batch_size=16, device="cuda:0")
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
