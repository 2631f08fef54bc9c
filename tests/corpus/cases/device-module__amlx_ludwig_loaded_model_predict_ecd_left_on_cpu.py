"""Ludwig (torch port): `LudwigModel.load(...).predict()` on a GPU machine, with the loaded ECD left on the CPU.

Source: https://github.com/ludwig-ai/ludwig/pull/1533
Fixing `test_api.py` on GPU, `loaded_model.predict(dataset=data_csv)` failed with "Expected all tensors
to be on the same device, but found at least two devices, cpu and cuda:0! (when checking argument for
argument mat1 in method wrapper_addmm)": the `Predictor` moves every input column to its device
(`torch.from_numpy(batch[...]).to(self.device)`, cuda when available) but the model rebuilt by
`LudwigModel.load` stays on the CPU. The fix moves the model to the predictor's device before
predicting (`model.to(self.device)` in `Predictor.batch_predict`, later done in `Predictor.__init__`).
Stand-ins: `LudwigModel` (load/predict), `Predictor.batch_predict` as of that PR, a small ECD with
numerical input features, a concat combiner and a binary output feature.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
from torch import nn

class NumericalInputFeature(nn.Module):
    def __init__(self, feature_name, proc_column):
        super().__init__()
        self.feature_name, self.proc_column = feature_name, proc_column
        self.encoder = nn.Linear(1, 8)

    def forward(self, x):
        return {"encoder_output": self.encoder(x[:, None].float())}

class BinaryOutputFeature(nn.Module):
    def __init__(self, feature_name):
        super().__init__()
        self.feature_name = feature_name
        self.decoder = nn.Linear(16, 1)

    def forward(self, hidden):
        return self.decoder(hidden).squeeze(-1)

class ECD(nn.Module):
    def __init__(self, input_features, output_features):
        super().__init__()
        self.input_features = nn.ModuleDict({f.feature_name: f for f in input_features})
        self.combiner = nn.Sequential(nn.Linear(16, 16), nn.ReLU())
        self.output_features = nn.ModuleDict({f.feature_name: f for f in output_features})

    def forward(self, inputs):
        encoder_outputs = [self.input_features[name](values)["encoder_output"] for name, values in inputs.items()]
        hidden = self.combiner(torch.cat(encoder_outputs, dim=-1))
        return {name: of(hidden) for name, of in self.output_features.items()}

    def predict_step(self, inputs):
        with torch.no_grad():
            logits = self(inputs)
        return {name: torch.sigmoid(l) > 0.5 for name, l in logits.items()}

class Predictor:
    def __init__(self, batch_size=128, horovod=None, debug=False, **kwargs):
        self._batch_size = batch_size
        self._horovod = horovod
        self._debug = debug
        self.device = "cuda:0"          # "cuda" if torch.cuda.is_available() else "cpu"

    def batch_predict(self, model, dataset, dataset_name=None):
        prev_model_training_mode = model.training
        model.eval()
        predictions = []
        for start in range(0, len(dataset["y"]), self._batch_size):
            batch = {k: v[start:start + self._batch_size] for k, v in dataset.items()}
            inputs = {
                i_feat.feature_name: torch.from_numpy(batch[i_feat.proc_column]).to(self.device)
                for i_feat in model.input_features.values()
            }
            predictions.append(model.predict_step(inputs))
        model.train(prev_model_training_mode)
        return predictions

class LudwigModel:
    def __init__(self, config):
        self.config = config
        self.model = None

    @staticmethod
    def load(model_dir):
        ludwig_model = LudwigModel({"model_dir": model_dir})
        ludwig_model.model = ECD([NumericalInputFeature("x1", "x1_mZFLky"), NumericalInputFeature("x2", "x2_mZFLky")],
                                 [BinaryOutputFeature("y")])
        # model weights are restored with load_state_dict(torch.load(...)): on the CPU
        return ludwig_model

    def predict(self, dataset=None, batch_size=128):
        predictor = Predictor(batch_size=batch_size)
        return predictor.batch_predict(self.model, dataset)

rng = np.random.RandomState(0)
data_csv = {"x1_mZFLky": rng.randn(300).astype(np.float32),
            "x2_mZFLky": rng.randn(300).astype(np.float32),
            "y": (rng.rand(300) > 0.5)}
loaded_model = LudwigModel.load("results/experiment_run/model")
'''
CELL = '''
preds = loaded_model.predict(dataset=data_csv)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["loaded_model.model"]
FIX = "namespace"
REFERENCE_FIX = '''
loaded_model.model.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
