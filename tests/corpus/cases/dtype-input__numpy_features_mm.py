"""Linear regression from scratch: features made with numpy (float64) times float32 weights.

Source: https://github.com/OUCMachineLearning/OUCML/issues/24
Chapter 3.2.1 raised "expected scalar type Double but found Float" in torch.mm (today: "expected
m1 and m2 to have the same dtype, but got: double != float"): `features` came from
torch.from_numpy(np.random.normal(...)), the weights were float32. The reported fix:
`.to(torch.float32)` on the features.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch

num_inputs, num_examples = 2, 100
features = torch.from_numpy(np.random.normal(0, 1, (num_examples, num_inputs)))
w = torch.tensor(np.random.normal(0, 0.01, (num_inputs, 1)), dtype=torch.float32)
b = torch.zeros(1, dtype=torch.float32)

def linreg(X, w, b):
    return torch.mm(X, w) + b
'''
CELL = '''
y_hat = linreg(features, w, b)
'''
EXPECT_ERROR = "expected m1 and m2 to have the same dtype"
CULPRITS = ["features"]
FIX = "namespace"
REFERENCE_FIX = '''
features = features.to(torch.float32)
'''
REFERENCE_EDIT = None
CLEAN = False
