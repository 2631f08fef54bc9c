"""fastai v1 `get_preds(with_loss=True)`: GPU model and GPU class weights, losses computed on the CPU by design.

Source: https://github.com/fastai/fastai1/blob/master/fastai/basic_train.py (get_preds) and fastai/torch_core.py (NoneReduceOnCPU)
`get_preds` concatenates the validation outputs and targets and moves them to the CPU
(`to_float(torch.cat(o).cpu())`), then computes the per-item losses inside `NoneReduceOnCPU(loss_func)`,
which moves a weighted loss's `weight` to the CPU (and switches reduction to 'none') for the duration of
the call and puts it back on its device on exit. Look-alike: a CUDA model with a CUDA `weight` next to
CPU predictions; nothing mixes and the weight is back on the GPU afterwards.
Stand-ins: fastai v1 `validate`, `get_preds`, `NoneReduceOnCPU`, `Learner.get_preds`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from functools import partial
import torch
from torch import nn

class NoneReduceOnCPU():
    "A context manager to evaluate `loss_func` with none reduce and weights on the CPU inside."
    def __init__(self, loss_func):
        self.loss_func, self.device, self.old_red = loss_func, None, None

    def __enter__(self):
        if hasattr(self.loss_func, 'weight') and self.loss_func.weight is not None:
            self.device = self.loss_func.weight.device
            self.loss_func.weight = self.loss_func.weight.cpu()
        if hasattr(self.loss_func, 'reduction'):
            self.old_red = getattr(self.loss_func, 'reduction')
            setattr(self.loss_func, 'reduction', 'none')
            return self.loss_func
        else:
            return partial(self.loss_func, reduction='none')

    def __exit__(self, type, value, traceback):
        if self.device is not None:
            self.loss_func.weight = self.loss_func.weight.to(self.device)
        if self.old_red is not None:
            setattr(self.loss_func, 'reduction', self.old_red)

def to_float(b):
    return b.float() if b.dtype in (torch.float16, torch.bfloat16) else b

def validate(model, dl):
    model.eval()
    with torch.no_grad():
        for xb, yb in dl:
            yield model(xb), yb

def get_preds(model, dl, activ=None, loss_func=None):
    res = [to_float(torch.cat(o).cpu()) for o in zip(*validate(model, dl))]
    if loss_func is not None:
        with NoneReduceOnCPU(loss_func) as lf:
            res.append(lf(res[0], res[1]))
    if activ is not None:
        res[0] = activ(res[0])
    return res

class Learner:
    def __init__(self, valid_dl, model, loss_func):
        self.valid_dl, self.model, self.loss_func = valid_dl, model, loss_func

    def get_preds(self, with_loss=False):
        lf = self.loss_func if with_loss else None
        return get_preds(self.model, self.valid_dl, activ=nn.Softmax(dim=-1), loss_func=lf)

device = torch.device("cuda:0")
valid_dl = [(torch.randn(32, 12, device=device), torch.randint(0, 3, (32,), device=device)) for _ in range(3)]
model = nn.Sequential(nn.Linear(12, 24), nn.ReLU(), nn.Linear(24, 3)).to(device)
learn = Learner(valid_dl, model, nn.CrossEntropyLoss(weight=torch.tensor([1.0, 3.0, 0.7], device=device)))
'''
CELL = '''
probs, targets, losses = learn.get_preds(with_loss=True)
top_losses = losses.topk(5)
weight_device = learn.loss_func.weight.device
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
