"""Look-alike: FixMatch's `ModelEMA` deep-copies the already-moved model and copies (not averages) its buffers.

Source: https://github.com/kekmodel/FixMatch-pytorch/blob/master/models/ema.py
`train.py` does `model.to(args.device)` and then `ema_model = ModelEMA(args, model, args.ema_decay)`,
whose `__init__` deep-copies the model and calls `self.ema.to(args.device)` again; `update(model)`
walks both `state_dict()`s, blends only the parameter keys (`ema_v * decay + (1 - decay) * model_v`)
and `copy_`s the buffer keys, so BatchNorm's int64 `num_batches_tracked` is copied rather than
multiplied by a float. Same device, compatible dtypes: nothing to report.
Stand-in: a tiny WideResNet-like CNN with BatchNorm; `ModelEMA` as in the repo; the meta device
plays the GPU (`copy_` must run).
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import types
from copy import deepcopy
import torch
from torch import nn

class ModelEMA(object):
    def __init__(self, args, model, decay):
        self.ema = deepcopy(model)
        self.ema.to(args.device)
        self.ema.eval()
        self.decay = decay
        self.ema_has_module = hasattr(self.ema, 'module')
        self.param_keys = [k for k, _ in self.ema.named_parameters()]
        self.buffer_keys = [k for k, _ in self.ema.named_buffers()]
        for p in self.ema.parameters():
            p.requires_grad_(False)

    def update(self, model):
        needs_module = hasattr(model, 'module') and not self.ema_has_module
        with torch.no_grad():
            msd = model.state_dict()
            esd = self.ema.state_dict()
            for k in self.param_keys:
                if needs_module:
                    j = 'module.' + k
                else:
                    j = k
                model_v = msd[j].detach()
                ema_v = esd[k]
                esd[k].copy_(ema_v * self.decay + (1. - self.decay) * model_v)
            for k in self.buffer_keys:
                if needs_module:
                    j = 'module.' + k
                else:
                    j = k
                esd[k].copy_(msd[j])

args = types.SimpleNamespace(device=torch.device("meta"), ema_decay=0.999, use_ema=True)   # the repo: torch.device('cuda', args.gpu_id)
model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.LeakyReLU(0.1),
                      nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 10))
model.to(args.device)
if args.use_ema:
    ema_model = ModelEMA(args, model, args.ema_decay)
'''
CELL = '''
if args.use_ema:
    ema_model.update(model)
test_model = ema_model.ema if args.use_ema else model
logits = test_model(torch.randn(2, 3, 8, 8, device=args.device))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
