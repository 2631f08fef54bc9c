"""Ludwig `Predictor.batch_evaluation`: eval-loss metrics kept outside the module tree, moved by `metrics_to_device`.

Source: https://github.com/ludwig-ai/ludwig/blob/master/ludwig/models/predictor.py (Predictor.__init__, batch_evaluation) and ludwig/models/base.py (metrics_to_device)
Ludwig wraps the eval-loss `MeanMetric`s in a `ModuleWrapper` so they do not show up as submodules of
the model (for DeepSpeed), which means `model.to(device)` does not move them; `Predictor.__init__`
therefore calls `self.model.metrics_to_device(device)`, and `batch_evaluation` moves every input and
target column to `self.device` before `update_metrics`. Look-alike: metric state held outside
`Module.to()` that is nevertheless on the right device when the evaluation runs.
Stand-ins: torchmetrics `MeanMetric` (buffers), `ModuleWrapper`, a small ECD-like `BaseModel`, the Predictor.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class MeanMetric(nn.Module):                 # torchmetrics.MeanMetric (stand-in)
    def __init__(self):
        super().__init__()
        self.register_buffer("value", torch.tensor(0.0))
        self.register_buffer("weight", torch.tensor(0.0))

    def update(self, value):
        self.value += value.sum()
        self.weight += value.numel()

    def compute(self):
        return self.value / self.weight

class ModuleWrapper:
    """Used to prevent the PredictModule from showing up an attribute on the feature module."""
    def __init__(self, module):
        self.module = module

class NumberFeature(nn.Module):
    def __init__(self, feature_name, proc_column):
        super().__init__()
        self.feature_name, self.proc_column = feature_name, proc_column

class BaseModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.input_features = nn.ModuleDict({"x": NumberFeature("x", "x_mZFLky")})
        self.output_features = nn.ModuleDict({"y": NumberFeature("y", "y_mZFLky")})
        self.net = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
        self._eval_loss_metric = ModuleWrapper(MeanMetric())

    @property
    def eval_loss_metric(self):
        return self._eval_loss_metric.module

    def metrics_to_device(self, device):
        self._eval_loss_metric.module = self._eval_loss_metric.module.to(device)

    def forward(self, inputs):
        return {"y": self.net(inputs["x"]).squeeze(-1)}

    def update_metrics(self, targets, predictions):
        eval_loss = ((predictions["y"] - targets["y"]) ** 2).mean()
        self.eval_loss_metric.update(eval_loss)

class Predictor:
    def __init__(self, model, batch_size=128):
        self._batch_size = batch_size
        device = "cuda:0"                    # get_torch_device()
        self.device = device
        self.dist_model = model.to(device)
        self.model = model
        self.model.metrics_to_device(device)

    def batch_evaluation(self, dataset):
        self.dist_model.eval()
        with torch.no_grad():
            for start in range(0, len(dataset["y_mZFLky"]), self._batch_size):
                batch = {k: v[start:start + self._batch_size] for k, v in dataset.items()}
                inputs = {f.feature_name: torch.from_numpy(np.array(batch[f.proc_column], copy=True)).to(self.device)
                          for f in self.model.input_features.values()}
                targets = {f.feature_name: torch.from_numpy(np.array(batch[f.proc_column], copy=True)).to(self.device)
                           for f in self.model.output_features.values()}
                preds = self.dist_model(inputs)
                self.model.update_metrics(targets, preds)
        return {"loss": self.model.eval_loss_metric.compute()}

rng = np.random.RandomState(0)
dataset = {"x_mZFLky": rng.randn(300, 4).astype(np.float32), "y_mZFLky": rng.randn(300).astype(np.float32)}
model = BaseModel()
predictor = Predictor(model, batch_size=100)
'''
CELL = '''
metrics = predictor.batch_evaluation(dataset)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
