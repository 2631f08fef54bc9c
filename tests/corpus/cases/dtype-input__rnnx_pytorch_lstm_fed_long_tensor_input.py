"""An LSTM is called on an int64 (`.long()`) input tensor.

Source: https://github.com/pytorch/pytorch/issues/99998
"Change misleading error message for type mismatch in LSTM forward": `lstm(input, None)` with
`input = torch.zeros(20, 36, 1).long()` raised "RuntimeError: expected scalar type Long but
found Float", which reads as if the LSTM wanted Long; the reporter notes the solution is to pass
the input as a float tensor (PyTorch then added a dtype check in `RNNBase.forward`). Reproduced
as reported (a 2-layer batch-first LSTM on a CPU).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
lstm = torch.nn.LSTM(1, 200, 2, batch_first=True)
input = torch.zeros(20, 36, 1).long()
'''
CELL = '''
output, (h_n, c_n) = lstm(input, None)
'''
EXPECT_ERROR = ("input dtype (torch.int64) does not match weight dtype (torch.float32)",
                "expected scalar type Long but found Float",
                "input must have the type torch.float32")
CULPRITS = ["input"]
FIX = "namespace"
REFERENCE_FIX = '''
input = input.float()
'''
REFERENCE_EDIT = None
CLEAN = False
