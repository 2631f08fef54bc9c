"""bpnet-lite ChromBPNet.fit moves the int8 one-hot batch with `X = X.cuda()` but never casts it, so the first conv sees Char input and Float weights.

Source: https://github.com/jmschrei/bpnet-lite/issues/25
"Small fixes": the user points at `bpnetlite/chrombpnet.py` (commit 127e35e, line 204) and writes
that the sequences should be converted to float there, "the line should read `X = X.cuda().float()`,
like what's used in the training loop in `bpnet.py`", since training ChromBPNet gives a dtype
mismatch error; the maintainer acknowledges and later fixes it. The data loader yields one-hot
sequences as int8 (tangermeme's `one_hot_encode`). Stand-ins: BPNet and ChromBPNet reduced (small
filters, same iconv / dilated residual convs / profile + count heads, MNLL + log1p-MSE losses), a
list of int8 batches for the PeakGenerator; simulated on the CPU (`X.cuda()` written
`X.to(device)`, the float32 autocast context left out).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch

def MNLLLoss(logps, true_counts):
    log_fact_sum = torch.lgamma(torch.sum(true_counts, dim=-1) + 1)
    log_prod_fact = torch.sum(torch.lgamma(true_counts + 1), dim=-1)
    log_prod_exp = torch.sum(true_counts * logps, dim=-1)
    return -log_fact_sum + log_prod_fact - log_prod_exp

def log1pMSELoss(log_predicted_counts, true_counts):
    log_true = torch.log(true_counts+1)
    return torch.mean(torch.square(log_true - log_predicted_counts), dim=-1)

class BPNet(torch.nn.Module):
    """bpnetlite.bpnet.BPNet, reduced."""
    def __init__(self, n_filters=16, n_layers=3, n_outputs=1, n_control_tracks=0,
                 alpha=1, trimming=None):
        super().__init__()
        self.n_filters, self.n_layers, self.n_outputs = n_filters, n_layers, n_outputs
        self.n_control_tracks = n_control_tracks
        self.alpha = alpha
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
        X_w_ctl = X if X_ctl is None else torch.cat([X, X_ctl], dim=1)
        y_profile = self.fconv(X_w_ctl)[:, :, start:end]
        X = torch.mean(X[:, :, start-37:end+37], dim=2)
        y_counts = self.linear(X).reshape(X.shape[0], 1)
        return y_profile, y_counts

class ChromBPNet(torch.nn.Module):
    """bpnetlite.chrombpnet.ChromBPNet, reduced to its training loop."""
    def __init__(self, bias, accessibility, name):
        super().__init__()
        for parameter in bias.parameters():
            parameter.requires_grad = False
        self.bias = bias
        self.accessibility = accessibility
        self.name = name

    def fit(self, training_data, optimizer, max_epochs=1, device="cpu"):
        self.bias.eval()
        for epoch in range(max_epochs):
            for iteration, (X, y) in enumerate(training_data):
                self.accessibility.train()

                X = X.to(device)
                y = y.to(device)

                optimizer.zero_grad()

                acc_profile, acc_counts = self.accessibility(X)
                bias_profile, bias_counts = self.bias(X)

                y_profile = torch.nn.functional.log_softmax(acc_profile +
                    bias_profile, dim=-1)
                y_counts = torch.logsumexp(torch.stack([acc_counts,
                    bias_counts]), dim=0)

                profile_loss = MNLLLoss(y_profile, y).mean()
                count_loss = log1pMSELoss(y_counts, y.sum(dim=-1).reshape(-1,
                    1)).mean()

                loss = profile_loss + self.accessibility.alpha * count_loss
                loss.backward()
                optimizer.step()
        return loss

in_window, out_window = 300, 100
trimming = (in_window - out_window) // 2
bias = BPNet(n_filters=8, n_layers=2, trimming=trimming)
accessibility = BPNet(n_filters=16, n_layers=3, trimming=trimming)
model = ChromBPNet(bias=bias, accessibility=accessibility, name="chrombpnet.fold0")
optimizer = torch.optim.Adam(model.accessibility.parameters(), lr=0.001)

g = torch.Generator().manual_seed(0)
training_data = []
for _ in range(2):
    idx = torch.randint(0, 4, (4, in_window), generator=g)
    X = torch.nn.functional.one_hot(idx, 4).permute(0, 2, 1).to(torch.int8)   # one_hot_encode -> int8
    y = torch.randint(0, 5, (4, 1, out_window), generator=g).float()
    training_data.append((X, y))
'''
CELL = '''
loss = model.fit(training_data, optimizer, max_epochs=1)
'''
EXPECT_ERROR = "should be the same"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("                X = X.to(device)\n", "                X = X.to(device).float()\n")
CLEAN = False
