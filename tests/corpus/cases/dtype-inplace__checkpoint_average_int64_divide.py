"""Checkpoint averaging divides every summed entry in place, an int64 counter among them.

Source: https://github.com/rwth-i6/returnn/pull/1509
The averaging tool crashed with "result type Float can't be cast to the desired output type Long"
on `out_model_state[k] /= n` when the entry was int64 (reproduced in the PR with
`x = torch.Tensor([1]).to(torch.int64); x /= 1`); the fix is the out-of-place `x = x / n`.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch

checkpoints = [
    {"encoder.weight": torch.randn(4, 4), "encoder.bn.num_batches_tracked": torch.tensor(1000)},
    {"encoder.weight": torch.randn(4, 4), "encoder.bn.num_batches_tracked": torch.tensor(1200)},
]
out_model_state = {k: sum(ck[k] for ck in checkpoints) for k in checkpoints[0]}
'''
CELL = '''
for k in out_model_state:
    out_model_state[k] /= len(checkpoints)
'''
EXPECT_ERROR = "result type Float can't be cast to the desired output type Long"
CULPRITS = ["out_model_state['encoder.bn.num_batches_tracked']"]
FIX = "namespace"
REFERENCE_FIX = '''
out_model_state["encoder.bn.num_batches_tracked"] = out_model_state["encoder.bn.num_batches_tracked"].float()
'''
REFERENCE_EDIT = None
CLEAN = False
