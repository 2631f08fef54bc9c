"""icefall's running-average model: a float64 copy kept on the CPU, updated from the GPU model's state_dict.

Source: https://github.com/k2-fsa/icefall/blob/master/icefall/checkpoint.py
(with egs/librispeech/ASR/zipformer/train.py) The recipes build
`model_avg = copy.deepcopy(model).to(torch.float64)` on rank 0 *before* `model.to(device)`, so the
averaged model stays on the CPU in float64 by design; every `average_period` batches
`update_averaged_model` averages `model_cur.state_dict()` into it with `average_state_dict`, which
moves each current tensor with `.to(device=state_dict_1[k].device)` first. Look-alike: a cuda
float32 model and a CPU float64 copy of it in the same namespace and the same cell. Stand-ins: a
small Linear/LayerNorm model for the Zipformer transducer; `average_state_dict` without the
shared-parameter de-duplication by `data_ptr()` (the simulator's tensors have no data pointers).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import copy
from types import SimpleNamespace
import torch
from torch import nn

def average_state_dict(state_dict_1, state_dict_2, weight_1, weight_2, scaling_factor=1.0):
    """Average two state_dict with given weights:
    state_dict_1 = (state_dict_1 * weight_1 + state_dict_2 * weight_2) * scaling_factor
    It is an in-place operation on state_dict_1 itself."""
    for k in list(state_dict_1.keys()):
        v = state_dict_1[k]
        if torch.is_floating_point(v):
            v *= weight_1
            v += state_dict_2[k].to(device=state_dict_1[k].device) * weight_2
            v *= scaling_factor

def update_averaged_model(params, model_cur, model_avg):
    weight_cur = params.average_period / params.batch_idx_train
    weight_avg = 1 - weight_cur
    cur = model_cur.state_dict()
    avg = model_avg.state_dict()
    average_state_dict(state_dict_1=avg, state_dict_2=cur, weight_1=weight_avg, weight_2=weight_cur)

class Model(nn.Module):          # stand-in for the Zipformer transducer
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(80, 64), nn.LayerNorm(64), nn.ReLU())
        self.joiner = nn.Linear(64, 500)

    def forward(self, x):
        return self.joiner(self.encoder(x))

params = SimpleNamespace(average_period=200, batch_idx_train=0)
device = torch.device("cuda", 0)
model = Model()
rank = 0
if rank == 0:
    # model_avg is only used with rank 0
    model_avg = copy.deepcopy(model).to(torch.float64)
model.to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.045)

features = torch.randn(4, 100, 80).to(device)
'''
CELL = '''
with torch.no_grad():
    logits = model(features)
params.batch_idx_train += 200
if rank == 0 and params.batch_idx_train > 0 and params.batch_idx_train % params.average_period == 0:
    update_averaged_model(params=params, model_cur=model, model_avg=model_avg)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
