"""tangermeme saturation_mutagenesis fed a sequence already moved to the GPU: the attributions come back on the CPU.

Source: https://github.com/jmschrei/tangermeme/issues/36
The user ran `y_attr = saturation_mutagenesis(model.cuda(), seq.cuda(), device='cuda')` and got
"Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!" from
the last line, `result = X[:, :, start:end] * attr`. `predict` moves every batch to `device` and
returns its outputs on the CPU, so `attr` is a CPU tensor while `X` is the user's CUDA `seq`; the user
found that "the input X should be on cpu" (the maintainer then made the function move X to the CPU).
Stand-ins: `predict`, `_edit_distance_one`, `_attribution_score` and `saturation_mutagenesis` as in
tangermeme before v1.0.3 (built with split/narrow/unsqueeze instead of slicing), a tiny BPNet-like model.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

def predict(model, X, args=None, batch_size=32, dtype=None, device='cuda'):
    """Stand-in for tangermeme.predict.predict: batches go to `device`, outputs come back to the CPU."""
    model = model.to(device).eval()
    if dtype is None:
        dtype = next(model.parameters()).dtype
    y = []
    with torch.no_grad():
        for X_ in torch.split(X, batch_size):
            X_ = X_.type(dtype).to(device)
            y.append(model(X_).cpu())
    return torch.cat(y)

def _edit_distance_one(X, start, end):
    """Stand-in: every single-character substitution of X (alphabet, length) in [start, end)."""
    n_chars, length = X.shape
    width = end - start
    eye = torch.eye(n_chars, dtype=X.dtype, device=X.device)
    pos = torch.eye(length, dtype=X.dtype, device=X.device).narrow(0, start, width)
    keep = (1 - pos).unsqueeze(1).unsqueeze(1)
    put = pos.unsqueeze(1).unsqueeze(1) * eye.unsqueeze(0).unsqueeze(-1)
    X_ = X.unsqueeze(0).unsqueeze(0) * keep + put
    return X_.reshape(width * n_chars, n_chars, length)

def _attribution_score(y0, y_hat, target):
    attr = y_hat - y0.unsqueeze(1).unsqueeze(1)
    attr -= torch.mean(attr, dim=1, keepdim=True)
    return torch.mean(attr, dim=-1)

def saturation_mutagenesis(model, X, args=None, start=0, end=-1, batch_size=32,
                           target=None, hypothetical=False, raw_outputs=False,
                           dtype=None, device='cuda', verbose=False):
    """Stand-in for tangermeme.saturation_mutagenesis.saturation_mutagenesis (before v1.0.3)."""
    y0 = predict(model, X, args=args, dtype=dtype, device=device)
    if end < 0:
        end = X.shape[-1] + 1 + end
    width = end - start
    y_hat = []
    for X_i in torch.unbind(X):
        X_ = _edit_distance_one(X_i, start, end)
        y_hat_ = predict(model, X_, batch_size=batch_size, dtype=dtype, device=device)
        y_hat.append(y_hat_.reshape(width, X.shape[1], -1).transpose(0, 1))
    y_hat = torch.stack(y_hat)
    if raw_outputs == False:
        attr = _attribution_score(y0, y_hat, target)
        return X.narrow(2, start, width) * attr if hypothetical == False else attr
    return y0, y_hat

class BPNet(nn.Module):
    def __init__(self, n_filters=8, n_outputs=2):
        super().__init__()
        self.iconv = nn.Conv1d(4, n_filters, kernel_size=5, padding=2)
        self.linear = nn.Linear(n_filters, n_outputs)

    def forward(self, X):
        h = torch.relu(self.iconv(X))
        return self.linear(h.mean(dim=-1))

model = BPNet()
seq = torch.eye(4)[torch.randint(0, 4, (2, 20))].transpose(1, 2).contiguous()   # one-hot (2, 4, 20)
model = model.to("cuda:0")                      # model.cuda() in the report
seq = seq.to("cuda:0")                          # seq.cuda() in the report
'''
CELL = '''
y_attr = saturation_mutagenesis(model, seq, device='cuda:0')
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["seq"]
FIX = "namespace"
REFERENCE_FIX = '''
seq = seq.cpu()
'''
REFERENCE_EDIT = None
CLEAN = False
