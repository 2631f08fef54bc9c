"""skorch FAQ sample_weight recipe on a GPU: the weights taken from the numpy X dict stay on the CPU in get_loss.

Source: https://github.com/skorch-dev/skorch/issues/734
Following the FAQ "I want to use sample_weight", the user put `train = {'X': X, 'sample_weight':
np.random.randint(1, 3, size=(1000,))}` (sklearn `make_classification` data) and overrode
`get_loss` to compute `(sample_weight * loss_unreduced).mean()`; fitting with `device='cuda'`
failed with "expected device cpu but got device cuda:0". skorch moves the batch it feeds to the
module, but `get_loss` receives the original CPU batch, so `X['sample_weight']` is a CPU tensor
while the unreduced loss is on cuda. The fix (PR #736, FAQ updated):
`sample_weight = skorch.utils.to_tensor(X['sample_weight'], device=self.device)`.
Stand-in: a minimal NeuralNetClassifier keeping skorch's infer/get_loss split.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
from torch import nn

X = np.random.randn(64, 20).astype(np.float32)    # make_classification(1000, 20, ...)
train = {'X': X}
train['sample_weight'] = np.random.randint(1, 3, size=(64,))
y = np.random.randint(0, 2, size=(64,)).astype(np.int64)

class MyModule(nn.Module):
    def __init__(self, num_units=10, nonlin=nn.ReLU()):
        super().__init__()
        self.dense0 = nn.Linear(20, num_units)
        self.nonlin = nonlin
        self.dropout = nn.Dropout(0.5)
        self.dense1 = nn.Linear(num_units, num_units)
        self.output = nn.Linear(num_units, 2)
        self.softmax = nn.Softmax(dim=-1)

    def forward(self, X, **kwargs):
        X = self.nonlin(self.dense0(X))
        X = self.dropout(X)
        X = self.nonlin(self.dense1(X))
        return self.softmax(self.output(X))

class NeuralNetClassifier:
    """Stand-in for skorch.NeuralNetClassifier: batches stay on the CPU until `infer` moves them."""
    def __init__(self, module, max_epochs=1, lr=0.1, batch_size=16, device='cpu', criterion=nn.NLLLoss):
        self.module_, self.max_epochs, self.lr = module(), max_epochs, lr
        self.batch_size, self.device = batch_size, device
        self.criterion_ = criterion(reduction='none')

    def infer(self, x, **fit_params):
        x = {k: torch.as_tensor(v).to(self.device) for k, v in x.items()}
        return self.module_(**x, **fit_params)

    def get_loss(self, y_pred, y_true, X=None, training=False):
        return self.criterion_(torch.log(y_pred), torch.as_tensor(y_true).to(self.device))

    def fit(self, X, y):
        self.module_.to(self.device)
        n = len(y)
        for epoch in range(self.max_epochs):
            for i in range(0, n, self.batch_size):
                Xi = {k: torch.as_tensor(v[i:i + self.batch_size]) for k, v in X.items()}
                yi = torch.as_tensor(y[i:i + self.batch_size])
                y_pred = self.infer(Xi)
                loss = self.get_loss(y_pred, yi, X=Xi, training=True)
                if loss.requires_grad:
                    loss.backward()
        return self

class MyNet(NeuralNetClassifier):
    def __init__(self, *args, criterion__reduce=False, **kwargs):
        super().__init__(*args, **kwargs)

    def get_loss(self, y_pred, y_true, X, *args, **kwargs):
        loss_unreduced = super().get_loss(y_pred, y_true, X, *args, **kwargs)
        sample_weight = X['sample_weight']
        loss_reduced = (sample_weight * loss_unreduced).mean()
        return loss_reduced

net = MyNet(MyModule, max_epochs=1, lr=0.1, device='cuda:0')
'''
CELL = '''
net.fit(train, y)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "expected device")
CULPRITS = ["net"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("sample_weight = X['sample_weight']",
                  "sample_weight = X['sample_weight'].to(self.device)")
CLEAN = False
