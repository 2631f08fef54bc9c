"""Ludwig `Predictor` with a GBM model: GPU available, but the GBM and its inputs are kept on the CPU on purpose.

Source: https://github.com/ludwig-ai/ludwig/blob/master/ludwig/models/predictor.py (Predictor.__init__, "revert to using the requested device for GBMs when device usage is fixed")
For `model.type() == MODEL_GBM` the Predictor overrides the torch device returned by
`get_torch_device()` with "cpu", moves the (hummingbird-compiled) GBM module there, and then moves
every input column to that same `self.device`. Look-alike: a CUDA machine where the model, the inputs
and the outputs deliberately stay on the CPU while an ECD in the same session runs on the GPU.
Stand-ins: `get_torch_device`, a compiled-tree-like `GBM` module, an ECD, the Predictor's device choice.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

MODEL_ECD, MODEL_GBM = "ecd", "gbm"

def get_torch_device():
    return "cuda:0"

class GBM(nn.Module):
    "hummingbird GEMM-compiled tree ensemble (stand-in)"
    def __init__(self, n_features=4, n_nodes=15):
        super().__init__()
        self.register_buffer("weight_1", torch.randn(n_nodes, n_features))
        self.register_buffer("bias_1", torch.randn(n_nodes))
        self.register_buffer("weight_2", torch.randn(1, n_nodes))

    def type(self):
        return MODEL_GBM

    def forward(self, x):
        return (((x @ self.weight_1.t()) < self.bias_1).float() @ self.weight_2.t()).squeeze(-1)

class ECD(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))

    def type(self):
        return MODEL_ECD

    def forward(self, x):
        return self.net(x).squeeze(-1)

class Predictor:
    def __init__(self, dist_model, batch_size=128):
        self._batch_size = batch_size
        device = get_torch_device()
        if dist_model.type() == MODEL_GBM:
            # TODO (jeffkinnison): revert to using the requested device for GBMs when device usage is fixed
            device = "cpu"
        self.device = device
        self.dist_model = dist_model.to(device)

    def batch_predict(self, X):
        self.dist_model.eval()
        outs = []
        with torch.no_grad():
            for start in range(0, len(X), self._batch_size):
                inputs = torch.from_numpy(np.array(X[start:start + self._batch_size], copy=True)).to(self.device)
                outs.append(self.dist_model(inputs))
        return torch.cat(outs)

rng = np.random.RandomState(0)
X = rng.randn(256, 4).astype(np.float32)
gbm_predictor = Predictor(GBM())
ecd_predictor = Predictor(ECD())
'''
CELL = '''
gbm_preds = gbm_predictor.batch_predict(X)
ecd_preds = ecd_predictor.batch_predict(X)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
