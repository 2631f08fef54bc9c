"""One-hot encoding with scatter_ of a target column read as float from a CSV.

Source: https://github.com/deep-learning-with-pytorch/dlwpt-code/issues/12
Chapter 4 (wine quality): `target_onehot.scatter_(1, target.unsqueeze(1), 1.0)` raised "Expected
object of scalar type Long but got scalar type Float for argument #3 'index'" (today: "scatter():
Expected dtype int32/int64 for index"): `target` was the last column of the float wine tensor;
the book converts it with `.long()` first.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import torch

wineq = torch.cat([torch.rand(20, 11) * 10, torch.randint(3, 9, (20, 1)).float()], dim=1)
data = wineq[:, :-1]
target = wineq[:, -1]
target_onehot = torch.zeros(target.shape[0], 10)
'''
CELL = '''
target_onehot.scatter_(1, target.unsqueeze(1), 1.0)
'''
EXPECT_ERROR = "scatter(): Expected dtype int32/int64 for index"
CULPRITS = ["target"]
FIX = "namespace"
REFERENCE_FIX = '''
target = target.long()
'''
REFERENCE_EDIT = None
CLEAN = False
