"""Sultani-style video anomaly detector: pre-computed C3D features read from text come back as float64.

Source: https://github.com/ekosman/AnomalyDetectionCVPR2018-Pytorch/issues/212
With the published C3D pre-computed features, `TrainingAnomalyDetector_public.py` and `generate_ROC.py`
both failed in the detector's first `nn.Linear` with "RuntimeError: mat1 and mat2 must have the same
dtype". The maintainer reproduced it ("wrong tensor dtypes apparently") and fixed it in #216 ("Fix
dtypes"): the features parsed from the text files are float64 numpy arrays turned into tensors without
a cast, while the AnomalyDetector's weights are float32. Stand-ins: `read_features` (text parsing
replaced by random float64 rows), the FeaturesLoaderVal-style iteration and the 4096-512-32-1 detector.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn

def read_features(file_path, cache=None):
    # feature_extractor.read_features: one 4096-d C3D feature per segment, parsed from text
    features = np.random.rand(32, 4096)               # np.array of parsed floats: float64
    return torch.from_numpy(features)

class AnomalyDetector(nn.Module):
    def __init__(self, input_dim=4096):
        super().__init__()
        self.fc1 = nn.Linear(input_dim, 512)
        self.relu1 = nn.ReLU()
        self.dropout1 = nn.Dropout(0.6)
        self.fc2 = nn.Linear(512, 32)
        self.dropout2 = nn.Dropout(0.6)
        self.fc3 = nn.Linear(32, 1)
        self.sig = nn.Sigmoid()

    def forward(self, x):
        x = self.dropout1(self.relu1(self.fc1(x)))
        x = self.dropout2(self.fc2(x))
        return self.sig(self.fc3(x))

device = torch.device("cpu")
anomaly_detector = AnomalyDetector().to(device).eval()
features_list = ["Abuse/Abuse028_x264", "Arrest/Arrest030_x264", "Normal_Videos_event/Normal_Videos_003_x264"]
'''
CELL = '''
y_preds = []
with torch.no_grad():
    for feature_subpath in features_list:
        features = read_features(f"{feature_subpath}.txt").to(device)
        outputs = anomaly_detector(features).squeeze(-1)
        y_preds.append(outputs)
'''
EXPECT_ERROR = ("must have the same dtype", "expected scalar type", "expected m1 and m2")
CULPRITS = ["features"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("return torch.from_numpy(features)", "return torch.from_numpy(features).float()")
CLEAN = False
