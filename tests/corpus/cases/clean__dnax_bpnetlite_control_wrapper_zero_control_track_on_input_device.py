"""Look-alike: bpnet-lite ControlWrapper builds the all-zero control track inside forward with `dtype=X.dtype, device=X.device`; the int8 one-hot batch is cast with `.float()` when moved.

Source: https://github.com/jmschrei/bpnet-lite/blob/127e35ed39a4100a3ed80a7b95ca97b05003bcd4/bpnetlite/bpnet.py
`ControlWrapper.forward(X, X_ctl=None)` returns `self.model(X)` when the model has no control tracks,
else creates `X_ctl = torch.zeros(X.shape[0], self.model.n_control_tracks, X.shape[-1],
dtype=X.dtype, device=X.device)`: a tensor made in forward, but on the input's device and dtype.
BPNet's own training loop moves the one-hot batch with `X = X.to(device).float()`. A model with two
control tracks on the GPU, a CPU int8 batch moved and cast by the user: nothing to report.
Stand-ins: BPNet reduced (small filters; iconv, dilated residual convs, profile conv over
[X, X_ctl], count head with the log control counts), ControlWrapper as in the file.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch

class BPNet(torch.nn.Module):
    """bpnetlite.bpnet.BPNet, reduced."""
    def __init__(self, n_filters=16, n_layers=3, n_outputs=2, n_control_tracks=2, trimming=None):
        super().__init__()
        self.n_filters, self.n_layers, self.n_outputs = n_filters, n_layers, n_outputs
        self.n_control_tracks = n_control_tracks
        self.trimming = trimming
        self.iconv = torch.nn.Conv1d(4, n_filters, kernel_size=21, padding=10)
        self.irelu = torch.nn.ReLU()
        self.rconvs = torch.nn.ModuleList([
            torch.nn.Conv1d(n_filters, n_filters, kernel_size=3, padding=2**i,
                            dilation=2**i) for i in range(1, n_layers+1)])
        self.rrelus = torch.nn.ModuleList([torch.nn.ReLU() for _ in range(n_layers)])
        self.fconv = torch.nn.Conv1d(n_filters+n_control_tracks, n_outputs,
                                     kernel_size=75, padding=37)
        n_count_control = 1 if n_control_tracks > 0 else 0
        self.linear = torch.nn.Linear(n_filters+n_count_control, 1)

    def forward(self, X, X_ctl=None):
        start, end = self.trimming, X.shape[2] - self.trimming
        X = self.irelu(self.iconv(X))
        for i in range(self.n_layers):
            X_conv = self.rrelus[i](self.rconvs[i](X))
            X = torch.add(X, X_conv)
        if X_ctl is None:
            X_w_ctl = X
        else:
            X_w_ctl = torch.cat([X, X_ctl], dim=1)
        y_profile = self.fconv(X_w_ctl)[:, :, start:end]
        X = torch.mean(X[:, :, start-37:end+37], dim=2)
        if X_ctl is not None:
            X_ctl = torch.sum(X_ctl[:, :, start-37:end+37], dim=(1, 2))
            X_ctl = X_ctl.unsqueeze(-1)
            X = torch.cat([X, torch.log(X_ctl+1)], dim=-1)
        y_counts = self.linear(X).reshape(X.shape[0], 1)
        return y_profile, y_counts

class ControlWrapper(torch.nn.Module):
    """This wrapper automatically creates a control track of all zeroes."""
    def __init__(self, model):
        super(ControlWrapper, self).__init__()
        self.model = model

    def forward(self, X, X_ctl=None):
        if X_ctl != None:
            return self.model(X, X_ctl)
        if self.model.n_control_tracks == 0:
            return self.model(X)
        X_ctl = torch.zeros(X.shape[0], self.model.n_control_tracks,
            X.shape[-1], dtype=X.dtype, device=X.device)
        return self.model(X, X_ctl)

device = "cuda:0"
in_window, out_window = 300, 100
model = BPNet(n_filters=16, n_layers=3, n_outputs=2, n_control_tracks=2,
              trimming=(in_window - out_window) // 2)
wrapper = ControlWrapper(model).to(device)
wrapper.eval()

idx = torch.randint(0, 4, (4, in_window))
X = torch.nn.functional.one_hot(idx, 4).permute(0, 2, 1).to(torch.int8)   # one_hot_encode -> int8
'''
CELL = '''
X = X.to(device).float()
with torch.no_grad():
    y_profile, y_counts = wrapper(X)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
