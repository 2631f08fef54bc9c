"""tangermeme `saturation_mutagenesis` called with a CUDA sequence: the function itself moves X to the CPU.

Source: https://github.com/jmschrei/tangermeme/blob/main/tangermeme/saturation_mutagenesis.py
After the report in jmschrei/tangermeme#36, `saturation_mutagenesis` starts with
`X = X.type(torch.int8).cpu()`: the perturbed sequences are built on the CPU, `predict` moves each
batch to `device` and returns CPU outputs, and `X[:, :, start:end] * attr` multiplies two CPU tensors.
The call from the report, with model and sequence on the GPU, is now correct. Stand-ins: `predict`,
`_edit_distance_one`, `_attribution_score` and `saturation_mutagenesis` reduced to the default path,
a tiny BPNet-like model.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def predict(model, X, args=None, batch_size=32, dtype=None, device=None):
    """Stand-in for tangermeme.predict.predict: batches go to `device`, outputs come back to the CPU."""
    if dtype is None:
        dtype = next(model.parameters()).dtype
    model = model.to(device).eval()
    y = []
    with torch.no_grad():
        for start in range(0, X.shape[0], batch_size):
            X_ = X[start:start + batch_size].type(dtype).to(device)
            y.append(model(X_).cpu())
    return torch.cat(y)

def _edit_distance_one(X, start, end):
    """Every single-character substitution of X (alphabet, length) in [start, end), on X's device."""
    n_chars = X.shape[0]
    X_ = X.repeat((end - start) * n_chars, 1, 1)
    k = 0
    for pos in range(start, end):
        for c in range(n_chars):
            X_[k, :, pos] = 0
            X_[k, c, pos] = 1
            k += 1
    return X_

def _attribution_score(y0, y_hat, target):
    attr = y_hat - y0[:, None, None, :]
    attr -= torch.mean(attr, dim=1, keepdim=True)
    return torch.mean(attr, dim=-1)

def saturation_mutagenesis(model, X, args=None, start=0, end=-1, batch_size=32, target=None,
                           hypothetical=False, raw_outputs=False, dtype=None, device=None):
    """Stand-in for tangermeme.saturation_mutagenesis.saturation_mutagenesis."""
    X = X.type(torch.int8).cpu()
    y0 = predict(model, X, args=args, dtype=dtype, device=device)
    if end < 0:
        end = X.shape[-1] + 1 + end
    y_hat = []
    for i in range(X.shape[0]):
        X_ = _edit_distance_one(X[i], start, end)
        y_hat_ = predict(model, X_, batch_size=batch_size, dtype=dtype, device=device)
        y_hat.append(y_hat_.reshape(end - start, X.shape[1], -1).transpose(0, 1))
    y_hat = torch.stack(y_hat)
    attr = _attribution_score(y0, y_hat, target)
    return X[:, :, start:end] * attr if not hypothetical else attr

class BPNet(nn.Module):
    def __init__(self, n_filters=8, n_outputs=2):
        super().__init__()
        self.iconv = nn.Conv1d(4, n_filters, kernel_size=5, padding=2)
        self.linear = nn.Linear(n_filters, n_outputs)

    def forward(self, X):
        return self.linear(torch.relu(self.iconv(X)).mean(dim=-1))

model = BPNet().to("cuda:0")
seq = torch.eye(4)[torch.randint(0, 4, (2, 20))].transpose(1, 2).contiguous()
seq = seq.to("cuda:0")                                   # seq.cuda(), as in the original report
'''
CELL = '''
y_attr = saturation_mutagenesis(model, seq, device="cuda:0")
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
