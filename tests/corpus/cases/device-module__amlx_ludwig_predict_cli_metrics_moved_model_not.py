"""Ludwig 0.8 `ludwig predict` on a GPU: the Predictor moves the metrics and the inputs to CUDA but not the loaded model.

Source: https://github.com/ludwig-ai/ludwig/pull/3554
`ludwig predict --model_path results/experiment_run/model --dataset rotten_tomatoes_test.csv` (the
getting-started example) failed on a GPU machine (H100, torch 2.0) with a device mismatch, as shown in
the PR's before/after screenshots: `Predictor.__init__` takes `device = get_torch_device()` (cuda), calls
`self.model.metrics_to_device(device)` and `batch_predict` moves every input column to `self.device`,
but the model restored by `LudwigModel.load` is never moved there. The merged fix adds
`self.dist_model = self._distributed.to_device(self.dist_model)` (the local strategy moves the model to
`get_torch_device()`).
Stand-ins: `LudwigModel.load/predict`, `LocalStrategy`, the Predictor as of v0.8, a small text ECD.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
from torch import nn

def get_torch_device():
    return "cuda:0"

class MeanMetric(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("value", torch.tensor(0.0))

class ModuleWrapper:
    def __init__(self, module):
        self.module = module

class TextInputFeature(nn.Module):
    def __init__(self, feature_name, proc_column, vocab_size=200):
        super().__init__()
        self.feature_name, self.proc_column = feature_name, proc_column
        self.embed = nn.Embedding(vocab_size, 16)
        self.fc = nn.Linear(16, 16)

    def forward(self, x):
        return {"encoder_output": self.fc(self.embed(x).mean(1))}

class ECD(nn.Module):
    def __init__(self):
        super().__init__()
        self.input_features = nn.ModuleDict({"review": TextInputFeature("review", "review_mZFLky")})
        self.combiner = nn.Sequential(nn.Linear(16, 16), nn.ReLU())
        self.decoder = nn.Linear(16, 2)
        self._eval_loss_metric = ModuleWrapper(MeanMetric())

    def metrics_to_device(self, device):
        self._eval_loss_metric.module = self._eval_loss_metric.module.to(device)

    def forward(self, inputs):
        hidden = self.combiner(self.input_features["review"](inputs["review"])["encoder_output"])
        return {"recommended": self.decoder(hidden)}

class LocalStrategy:
    def to_device(self, model, device=None):
        return model.to(device if device is not None else get_torch_device())

class Predictor:
    def __init__(self, dist_model, batch_size=128, distributed=None, model=None):
        model = model or dist_model
        self._batch_size = batch_size
        self._distributed = distributed if distributed is not None else LocalStrategy()
        device = get_torch_device()
        self.device = device
        self.dist_model = dist_model
        self.model = model
        self.model.metrics_to_device(device)

    def batch_predict(self, dataset):
        self.dist_model.eval()
        predictions = []
        with torch.no_grad():
            for start in range(0, len(dataset["review_mZFLky"]), self._batch_size):
                batch = {k: v[start:start + self._batch_size] for k, v in dataset.items()}
                inputs = {f.feature_name: torch.from_numpy(np.array(batch[f.proc_column], copy=True)).to(self.device)
                          for f in self.model.input_features.values()}
                predictions.append(self.dist_model(inputs)["recommended"].argmax(-1))
        return predictions

class LudwigModel:
    def __init__(self, config):
        self.config = config
        self.model = None

    @staticmethod
    def load(model_dir):
        ludwig_model = LudwigModel({"model_dir": model_dir})
        ludwig_model.model = ECD()            # weights restored on the CPU
        return ludwig_model

    def predict(self, dataset=None, batch_size=128):
        predictor = Predictor(self.model, batch_size=batch_size)
        return predictor.batch_predict(dataset)

rng = np.random.RandomState(0)
dataset = {"review_mZFLky": rng.randint(1, 200, size=(256, 20)).astype(np.int64)}
model = LudwigModel.load("results/experiment_run/model")
'''
CELL = '''
predictions = model.predict(dataset=dataset)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.model"]
FIX = "namespace"
REFERENCE_FIX = '''
model.model.to(get_torch_device())
'''
REFERENCE_EDIT = None
CLEAN = False
