"""Selene MultiModelWrapper keeps its sub-models in a plain list, so `model.cuda()` leaves them on the CPU.

Source: https://github.com/FunctionLab/selene/issues/122
"MultiModelWrapper cannot be used on a GPU node": the maintainer states that `sub_models` is a Python
list and "the default PyTorch class does not handle CUDA-enabling modules in a list", so
`AnalyzeSequences(..., use_cuda=True)` calling `self.model.cuda()` moves nothing while `predict`
sends the one-hot batch to the GPU. PR #123 adds a `cuda()` override looping over
`self.sub_models`; the reference edit registers them instead (`nn.ModuleList`), which the
maintainer's diagnosis points to. Stand-ins: selene's MultiModelWrapper and `predict` (returns the
CPU tensor instead of `.numpy()`; `.cuda()` written `.to("cuda:0")` for the simulation), and a small
DeeperDeepSEA-like CNN for the SeqWeaver sub-models.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class MultiModelWrapper(nn.Module):
    """selene_sdk.utils.MultiModelWrapper before PR #123."""
    def __init__(self, sub_models, concat_dim=1):
        super(MultiModelWrapper, self).__init__()
        self.sub_models = sub_models
        self._concat_dim = concat_dim

    def eval(self):
        for sm in self.sub_models:
            sm.eval()

    def forward(self, x):
        return torch.cat(
            [sm(x) for sm in self.sub_models], self._concat_dim)

class DeeperDeepSEA(nn.Module):
    """selene's DeeperDeepSEA, reduced (a conv tower and a sigmoid classifier)."""
    def __init__(self, sequence_length, n_targets):
        super().__init__()
        self.conv_net = nn.Sequential(
            nn.Conv1d(4, 16, kernel_size=8), nn.ReLU(inplace=True),
            nn.MaxPool1d(kernel_size=4, stride=4),
            nn.Conv1d(16, 32, kernel_size=8), nn.ReLU(inplace=True),
            nn.AdaptiveMaxPool1d(1))
        self.classifier = nn.Sequential(nn.Linear(32, n_targets), nn.Sigmoid())

    def forward(self, x):
        out = self.conv_net(x)
        return self.classifier(out.view(out.size(0), -1))

def predict(model, batch_sequences, use_cuda=False):
    """selene_sdk.predict._common.predict."""
    inputs = torch.Tensor(batch_sequences)
    if use_cuda:
        inputs = inputs.to("cuda:0")
    with torch.no_grad():
        outputs = model.forward(inputs.transpose(1, 2))
        return outputs.data.cpu()

seqweaver_human = DeeperDeepSEA(1000, 43)
seqweaver_mouse = DeeperDeepSEA(1000, 43)
model = MultiModelWrapper([seqweaver_human, seqweaver_mouse], concat_dim=1)

# AnalyzeSequences(model, trained_model_path=[...], use_cuda=True) does:
model.eval()
use_cuda = True
model.to("cuda:0")

rng = np.random.default_rng(0)
seq_enc = np.eye(4, dtype=np.float32)[rng.integers(0, 4, size=(2, 1000))]   # B x L x 4
'''
CELL = '''
preds = predict(model, seq_enc, use_cuda=use_cuda)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "should be the same")
CULPRITS = ["model.sub_models"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        self.sub_models = sub_models\n",
                  "        self.sub_models = nn.ModuleList(sub_models)\n")
CLEAN = False
