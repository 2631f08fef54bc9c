"""TorchCP `SplitPredictor` with a GPU classifier: calibration and test batches come from CPU DataLoaders and are moved to `self._device` inside `calibrate`/`predict`.

Source: https://github.com/ml-stat-Sustech/TorchCP/blob/master/torchcp/classification/predictor/split.py
The split-conformal predictor takes `device=` at construction, moves every `(x, label)` calibration
batch with `examples[0].to(self._device), examples[1].to(self._device)`, computes THR non-conformity
scores and the conformal quantile `q_hat` on that device, and `predict(x_batch)` moves a CPU test batch
itself (`self._model(x_batch.to(self._device))`); alpha and the temperature are Python floats.
Look-alike: CPU datasets and a CPU test batch handed to a wrapper around a cuda model. Stand-in:
SplitPredictor + THR score + `calculate_conformal_value` (kthvalue form) around a small MLP; meta
plays cuda (the fake-cuda mode cannot run kthvalue).
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

class THR:
    def __call__(self, logits, label=None):
        probs = torch.softmax(logits, dim=-1)
        if label is None:
            return 1 - probs
        return 1 - probs.gather(1, label.unsqueeze(1)).squeeze(1)

def calculate_conformal_value(scores, alpha, default_q_hat=torch.inf):
    N = scores.shape[0]
    qunatile_value = math.ceil((N + 1) * (1 - alpha)) / N
    if qunatile_value > 1:
        return default_q_hat
    return torch.kthvalue(scores, math.ceil(N * qunatile_value), dim=0).values.to(scores.device)

class SplitPredictor:
    def __init__(self, score_function, model=None, temperature=1, alpha=0.1, device=None):
        self.score_function = score_function
        self._model = model
        self._temperature = temperature
        self.alpha = alpha
        self._device = device
        self.q_hat = None

    def _logits_transformation(self, logits):
        return logits / self._temperature

    def calibrate(self, cal_dataloader, alpha=None):
        alpha = self.alpha if alpha is None else alpha
        self._model.eval()
        logits_list, labels_list = [], []
        with torch.no_grad():
            for examples in cal_dataloader:
                tmp_x, tmp_labels = examples[0].to(self._device), examples[1].to(self._device)
                logits_list.append(self._logits_transformation(self._model(tmp_x)).detach())
                labels_list.append(tmp_labels)
            logits = torch.cat(logits_list).float()
            labels = torch.cat(labels_list)
        self.cal_scores = self.score_function(logits, labels)
        self.q_hat = calculate_conformal_value(self.cal_scores, alpha)

    def predict(self, x_batch):
        self._model.eval()
        logits = self._logits_transformation(self._model(x_batch.to(self._device)).float()).detach()
        scores = self.score_function(logits).to(self._device)
        return (scores <= self.q_hat).int()

device = torch.device("meta")      # "cuda" in the report
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 5)).to(device)
cal_dataloader = DataLoader(TensorDataset(torch.randn(200, 16), torch.randint(0, 5, (200,))), batch_size=50)
test_x = torch.randn(8, 16)
predictor = SplitPredictor(score_function=THR(), model=model, alpha=0.1, device=device)
'''
CELL = '''
with torch.no_grad():
    predictor.calibrate(cal_dataloader)
    prediction_sets = predictor.predict(test_x)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
