"""Look-alike: DFDC winning solution feeds uint8 face crops to `.half()` EfficientNet classifiers after `.float()`, `/255.` and `.half()`.

Source: https://github.com/selimsef/dfdc_deepfake_challenge (predict_folder.py, kernel_utils.py)
`predict_folder.py` builds each `DeepFakeClassifier`, loads its checkpoint with `map_location="cpu"`,
calls `model.eval()` and appends `model.half()`. `predict_on_video` collects the face crops in a uint8
array, makes `x = torch.tensor(x, device=device).float()`, permutes to NCHW, normalises each frame with
`normalize_transform(x[i] / 255.)` and calls `model(x[:n].half())`, then `torch.sigmoid` and
`.cpu().numpy()` for the confident strategy. The uint8 buffer, the float32 tensor and the half models
all meet only after the explicit casts. Stand-ins: the classifier reduced to a conv stem + head, the
face extractor output as random crops, `device` resolved to "cpu" as on a machine without CUDA.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class Normalize:                      # torchvision.transforms.Normalize on a CHW tensor
    def __init__(self, mean, std):
        self.mean = torch.tensor(mean).view(-1, 1, 1)
        self.std = torch.tensor(std).view(-1, 1, 1)
    def __call__(self, t):
        return (t - self.mean) / self.std

normalize_transform = Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])

class DeepFakeClassifier(nn.Module):
    def __init__(self, encoder="tf_efficientnet_b7_ns", dropout_rate=0.0):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.SiLU())
        self.avg_pool = nn.AdaptiveAvgPool2d((1, 1))
        self.dropout = nn.Dropout(dropout_rate)
        self.fc = nn.Linear(16, 1)
    def forward(self, x):
        x = self.avg_pool(self.encoder(x)).flatten(1)
        return self.fc(self.dropout(x))

strategy = np.mean
models = []
for path in ["final_111_DeepFakeClassifier_tf_efficientnet_b7_ns_0_36"]:
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = DeepFakeClassifier(encoder="tf_efficientnet_b7_ns").to(device)
    model.eval()
    models.append(model.half())

input_size, batch_size = 64, 8
faces = np.random.default_rng(0).integers(0, 256, (5, input_size, input_size, 3), dtype=np.uint8)
'''
CELL = '''
x = np.zeros((batch_size, input_size, input_size, 3), dtype=np.uint8)
n = 0
for face in faces:
    x[n] = face
    n += 1
device = "cuda" if torch.cuda.is_available() else "cpu"
x = torch.tensor(x, device=device).float()
x = x.permute((0, 3, 1, 2))
for i in range(len(x)):
    x[i] = normalize_transform(x[i] / 255.)
with torch.no_grad():
    preds = []
    for model in models:
        y_pred = model(x[:n].half())
        y_pred = torch.sigmoid(y_pred.squeeze())
        bpred = y_pred[:n].cpu().numpy()
        preds.append(strategy(bpred))
prediction = np.mean(preds)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
