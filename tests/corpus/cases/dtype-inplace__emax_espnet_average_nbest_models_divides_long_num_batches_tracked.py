"""ESPnet2's `average_nbest_models` divides BatchNorm's int64 `num_batches_tracked` in place.

Source: https://github.com/espnet/espnet/pull/2283
After training, ESPnet2 averages the n best epoch checkpoints by summing their state dicts and
then dividing every entry in place (`avg[k] /= len(epoch_and_values)`). With PyTorch 1.6 this
fails for models with BatchNorm: `num_batches_tracked` is an integer tensor and true division
gives "result type Float can't be cast to the desired output type Long". The maintainer's fix
(the PR) keeps integer entries accumulated and only divides floating-point ones.
Stand-in: the function as it was before the fix, fed the epoch state dicts directly instead of
`torch.load(output_dir / f"{e}epoch.pth")`, and without the reporter/symlink bookkeeping.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch
from torch import nn

@torch.no_grad()
def average_nbest_models(epoch_states):
    avg = None
    # 2.a Averaging model
    for states in epoch_states:
        if avg is None:
            avg = states
        else:
            # Accumulated
            for k in avg:
                avg[k] += states[k]
    for k in avg:
        avg[k] /= len(epoch_states)
    return avg

model = nn.Sequential(
    nn.Conv1d(80, 64, 3, padding=1),
    nn.BatchNorm1d(64),
    nn.ReLU(),
    nn.Conv1d(64, 32, 3, padding=1),
)
model.train()
_loaded = {}
for e in (7, 9, 10):
    model(torch.randn(4, 80, 50))
    _loaded[e] = {k: v.clone() for k, v in model.state_dict().items()}
epoch_and_values = [(10, 0.91), (9, 0.90), (7, 0.88)]
'''
CELL = '''
avg = average_nbest_models([_loaded[e] for e, _ in epoch_and_values])
'''
EXPECT_ERROR = "result type Float can't be cast to the desired output type Long"
CULPRITS = ["average_nbest_models"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        avg[k] /= len(epoch_states)",
    "        if str(avg[k].dtype).startswith(\"torch.int\"):\n"
    "            # For int type, not averaged, but only accumulated.\n"
    "            # e.g. BatchNorm.num_batches_tracked\n"
    "            pass\n"
    "        else:\n"
    "            avg[k] /= len(epoch_states)",
)
CLEAN = False
