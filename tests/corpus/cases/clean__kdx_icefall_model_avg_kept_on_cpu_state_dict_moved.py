"""Look-alike: icefall keeps `model_avg` on the CPU and averages the cuda model's state dict into it.

Source: https://github.com/k2-fsa/icefall/pull/348
"Now `model_avg` is kept on cpu instead of cuda device, to avoid extra cuda memory usage": the
averaged copy is a deepcopy made before `model.to(device)`, and `update_averaged_model` calls
`average_state_dict`, which does `v += state_dict_2[k].to(device=state_dict_1[k].device) * weight_2`
for floating-point entries, so the cuda weights are moved to the CPU average each time.
Stand-in: the two functions from icefall/checkpoint.py (shared-parameter dedup left out), a small
encoder; the copy re-instantiated and loaded since fake tensors cannot be deep-copied.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn

def average_state_dict(state_dict_1, state_dict_2, weight_1, weight_2, scaling_factor=1.0):
    for k in state_dict_1.keys():
        v = state_dict_1[k]
        if torch.is_floating_point(v):
            v *= weight_1
            v += state_dict_2[k].to(device=state_dict_1[k].device) * weight_2
            v *= scaling_factor

def update_averaged_model(params, model_cur, model_avg):
    average_period = params.average_period
    batch_idx_train = params.batch_idx_train
    weight_cur = average_period / batch_idx_train
    weight_avg = 1 - weight_cur
    cur = model_cur.state_dict()
    avg = model_avg.state_dict()
    average_state_dict(state_dict_1=avg, state_dict_2=cur, weight_1=weight_avg, weight_2=weight_cur)

def get_model():
    return nn.Sequential(nn.Linear(80, 64), nn.LayerNorm(64), nn.ReLU(), nn.Linear(64, 500))

model = get_model()
model_avg = get_model()                     # upstream: copy.deepcopy(model), before model.to(device)
model_avg.load_state_dict(model.state_dict())
device = torch.device("cuda", 0)
model.to(device)
params = SimpleNamespace(average_period=200, batch_idx_train=400)
'''
CELL = '''
update_averaged_model(params=params, model_cur=model, model_avg=model_avg)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
