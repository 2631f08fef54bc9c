"""An image array from numpy (float64) converted with torch.from_numpy and fed to a float32 CNN.

Source: https://github.com/timeseriesAI/tsai/issues/468
"Input type (torch.cuda.DoubleTensor) and weight type (torch.cuda.FloatTensor) should be the same"
(today on the CPU: "Input type (double) and bias type (float) should be the same"): the input X
was float64, the maintainer's answer: cast X to float32 (`X.astype('float32')` or `X.float()`).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

model = nn.Sequential(
    nn.Conv1d(3, 8, kernel_size=5, padding=2), nn.ReLU(),
    nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(8, 2),
)
X_np = np.random.randn(16, 3, 50)
X = torch.from_numpy(X_np)
'''
CELL = '''
logits = model(X)
'''
EXPECT_ERROR = "Input type (double) and bias type (float) should be the same"
CULPRITS = ["X"]
FIX = "namespace"
REFERENCE_FIX = '''
X = X.float()
'''
REFERENCE_EDIT = None
CLEAN = False
