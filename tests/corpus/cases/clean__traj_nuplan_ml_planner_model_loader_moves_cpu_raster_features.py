"""nuPlan MLPlanner: the raster feature is built on the CPU each step and moved by `ModelLoader.build_features` before inference.

Source: https://github.com/motional/nuplan-devkit/blob/master/nuplan/planning/simulation/planner/ml_planner/model_loader.py
`ModelLoader._initialize_torch` picks `torch.device('cuda' if torch.cuda.is_available() else 'cpu')`
and `_initialize_model` moves the trajectory-regression model there. Every simulation step,
`build_features` asks each feature builder for a feature from the simulation input (a numpy raster),
converts it with `to_feature_tensor()` (a CPU tensor), then `feature.to_device(self.device)` and
`collate([feature])`; `infer` calls `self._model.forward(features)`. Look-alike: a CPU-built feature
dict handed to a GPU model, moved inside the loader; it runs.
Stand-ins: Raster/Trajectory features (ToTensor written as a numpy transpose, serialize/deserialize for
`default_collate`), a raster feature builder, and RasterModel with a small CNN instead of the timm
backbone; the GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch.utils.data.dataloader import default_collate

class Raster:
    def __init__(self, data):
        self.data = data
    def to_feature_tensor(self):
        return Raster(data=torch.from_numpy(np.ascontiguousarray(np.asarray(self.data).transpose(2, 0, 1))))
    def to_device(self, device):
        return Raster(data=self.data.to(device=device))
    def serialize(self):
        return {"data": self.data}
    @classmethod
    def deserialize(cls, data):
        return Raster(data=data["data"])
    @classmethod
    def collate(cls, batch):
        serialized = [sample.serialize() for sample in batch]
        return cls.deserialize(default_collate(serialized))

class Trajectory:
    def __init__(self, data):
        self.data = data
    @staticmethod
    def state_size():
        return 3

class RasterFeatureBuilder:
    def __init__(self, raster_size=(64, 64), num_channels=4):
        self.raster_size, self.num_channels = raster_size, num_channels
    @classmethod
    def get_feature_unique_name(cls):
        return "raster"
    def get_features_from_simulation(self, current_input, initialization):
        rng = np.random.RandomState(current_input["iteration"])
        return Raster(data=rng.rand(*self.raster_size, self.num_channels).astype(np.float32))

def convert_predictions_to_trajectory(predictions):
    num_batches = predictions.shape[0]
    return predictions.view(num_batches, -1, Trajectory.state_size())

class RasterModel(torch.nn.Module):
    def __init__(self, feature_builders, num_input_channels=4, num_poses=16, num_features_per_pose=3):
        super().__init__()
        self.feature_builders = feature_builders
        self._model = torch.nn.Sequential(
            torch.nn.Conv2d(num_input_channels, 16, 3, stride=2), torch.nn.ReLU(),
            torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(),
            torch.nn.Linear(16, num_poses * num_features_per_pose))
    def get_list_of_required_feature(self):
        return self.feature_builders
    def forward(self, features):
        raster = features["raster"]
        predictions = self._model.forward(raster.data)
        return {"trajectory": Trajectory(data=convert_predictions_to_trajectory(predictions))}

class ModelLoader:
    def __init__(self, model):
        self.feature_builders = model.get_list_of_required_feature()
        self._model = model
        self._initialized = False

    def _initialize_torch(self):
        # torch.set_grad_enabled(False) in nuPlan (process-global; the cell uses no_grad instead)
        self.device = torch.device("meta")     # 'cuda' if torch.cuda.is_available() else 'cpu'

    def _initialize_model(self):
        self._model.eval()
        self._model = self._model.to(self.device)

    def initialize(self):
        self._initialize_torch()
        self._initialize_model()
        self._initialized = True

    def build_features(self, current_input, initialization):
        assert self._initialized, "The model loader has not been initialized!"
        features = {
            builder.get_feature_unique_name(): builder.get_features_from_simulation(current_input, initialization)
            for builder in self.feature_builders
        }
        features = {name: feature.to_feature_tensor() for name, feature in features.items()}
        features = {name: feature.to_device(self.device) for name, feature in features.items()}
        features = {name: feature.collate([feature]) for name, feature in features.items()}
        return features

    def infer(self, features):
        assert self._initialized is True, "The model loader has not been initialized!"
        return self._model.forward(features)

model = RasterModel([RasterFeatureBuilder()])
model_loader = ModelLoader(model)
model_loader.initialize()
current_input = {"iteration": 3}       # PlannerInput (stand-in)
initialization = None                  # PlannerInitialization (stand-in)
'''
CELL = '''
with torch.no_grad():
    features = model_loader.build_features(current_input, initialization)
    predictions = model_loader.infer(features)
trajectory_tensor = predictions["trajectory"].data
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
