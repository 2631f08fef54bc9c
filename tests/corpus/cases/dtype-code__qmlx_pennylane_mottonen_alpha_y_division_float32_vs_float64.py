"""PennyLane `MottonenStatePreparation` with torch float32 inputs: the rotation angles mix a float32 division with the float64 angle matrix.

Source: https://github.com/PennyLaneAI/pennylane/pull/1400
Users of `qml.templates.MottonenStatePreparation(inputs, wires=[0, 1])` inside a torch QNode got
"expected scalar type float but found double": `_get_alpha_y` computes `division = numerator /
denominator` from the (float32) torch state, and the angles are then combined with the
float64 matrix the template builds with NumPy. The fix casts the division:
`division = qml.math.cast(division, np.float64)`.
Stand-in: `_get_alpha_y` with the norms of the amplitude blocks and the Mottonen M matrix built in
float64, on the CPU (dtype only).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import numpy as np
import torch

def _matrix_M(k):
    n = 2 ** k
    M = np.ones((n, n)) / n          # float64, as the template builds it
    return torch.tensor(M)

def _get_alpha_y(a, n, k):
    pairs = (a ** 2).reshape(-1, 2)
    numerator = torch.sqrt(pairs[:, 1])
    denominator = torch.sqrt(pairs.sum(-1))
    division = numerator / denominator
    return 2 * torch.arcsin(division)

def MottonenStatePreparation(state_vector, n_wires):
    alpha_y = _get_alpha_y(state_vector, n_wires, n_wires)
    theta = _matrix_M(n_wires - 1) @ alpha_y
    return torch.cos(theta / 2)

inputs = torch.tensor([0.5, 0.5, 0.5, 0.5])      # torch default float32
'''
CELL = '''
angles = MottonenStatePreparation(inputs, 2)
print(angles)
'''
EXPECT_ERROR = ("expected scalar type", "same dtype", "should be the same")
CULPRITS = ["division"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("division = numerator / denominator", "division = (numerator / denominator).to(torch.float64)")
CLEAN = False
