"""Look-alike: ESPnet2's current `average_nbest_models` averages float entries and only accumulates the integer ones.

Source: https://github.com/espnet/espnet/blob/master/espnet2/main_funcs/average_nbest_models.py
Since espnet/espnet#2283 the n-best checkpoint averaging sums the state dicts out of place
(`avg[k] = avg[k] + states[k]`) and then, per entry, leaves integer tensors (BatchNorm's int64
`num_batches_tracked`) accumulated and divides only the floating ones (`avg[k] = avg[k] / n`).
The averaged dict -- float weights and summed int64 counters -- is then loaded back into a model
in eval mode and used. Int64 and float tensors side by side, nothing cast in place.
Stand-in: the averaging loop as upstream, fed the epoch state dicts instead of
`torch.load(output_dir / f"{e}epoch.pth")`, without the reporter/symlink bookkeeping.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

@torch.no_grad()
def average_nbest_models(_loaded, epoch_and_values):
    avg = None
    n = len(epoch_and_values)
    # 2.a. Averaging model
    for e, _ in epoch_and_values:
        states = _loaded[e]
        if avg is None:
            avg = states
        else:
            # Accumulated
            for k in avg:
                avg[k] = avg[k] + states[k]
    for k in avg:
        if str(avg[k].dtype).startswith("torch.int"):
            # For int type, not averaged, but only accumulated.
            # e.g. BatchNorm.num_batches_tracked
            pass
        else:
            avg[k] = avg[k] / n
    return avg

def build_model():
    return nn.Sequential(nn.Conv1d(80, 64, 3, padding=1), nn.BatchNorm1d(64), nn.ReLU(),
                         nn.Conv1d(64, 32, 3, padding=1))

model = build_model()
model.train()
_loaded = {}
for e in (7, 9, 10):
    model(torch.randn(4, 80, 50))
    _loaded[e] = {k: v.clone() for k, v in model.state_dict().items()}
epoch_and_values = [(10, 0.91), (9, 0.90), (7, 0.88)]
'''
CELL = '''
avg = average_nbest_models(_loaded, epoch_and_values)
asr_model = build_model()
asr_model.load_state_dict(avg)
asr_model.eval()
with torch.no_grad():
    feats = asr_model(torch.randn(2, 80, 120))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
