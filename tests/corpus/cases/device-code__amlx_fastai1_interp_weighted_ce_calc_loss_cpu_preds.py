"""fastai v1 `ClassificationInterpretation.from_learner` with a class-weighted `nn.CrossEntropyLoss` on the GPU.

Source: https://github.com/fastai/fastai/issues/1715
The user set `learn.loss_func = nn.CrossEntropyLoss(weight=weights)` with the class weights on the GPU,
trained, then called `ClassificationInterpretation.from_learner(learn)`; it failed with "Expected object
of backend CPU but got backend CUDA for argument #3 'weight'". `get_preds(..., with_loss=True)` moves
the predictions and targets to the CPU (`torch.cat(o).cpu()`) and then computes the per-item losses with
`calc_loss(res[0], res[1], loss_func)`, whose `weight` is still on the GPU. The fix (commit "Fix #1715")
moves the loss function's `weight` to the CPU while the unreduced loss is computed, and back afterwards.
Stand-ins: fastai v1 `validate`/`get_preds`/`calc_loss` (as of 1.0.45), a `Learner` and `ClassificationInterpretation`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

def validate(model, dl):
    model.eval()
    with torch.no_grad():
        for xb, yb in dl:
            yield model(xb), yb

def calc_loss(y_pred, y_true, loss_func):
    "Calculate loss between `y_pred` and `y_true` using `loss_func`."
    if hasattr(loss_func, 'reduction'):
        old_red = getattr(loss_func, 'reduction')
        setattr(loss_func, 'reduction', 'none')
        l = loss_func(y_pred, y_true)
        setattr(loss_func, 'reduction', old_red)
        return l
    else:
        return loss_func(y_pred, y_true, reduction='none')

def get_preds(model, dl, activ=None, loss_func=None):
    "Tuple of predictions and targets, and optional losses (if `loss_func`) using `dl`."
    res = [torch.cat(o).cpu() for o in zip(*validate(model, dl))]
    if loss_func is not None:
        res.append(calc_loss(res[0], res[1], loss_func))
    if activ is not None:
        res[0] = activ(res[0])
    return res

class Learner:
    def __init__(self, data, model, loss_func=None):
        self.data, self.model, self.loss_func = data, model, loss_func

    def get_preds(self, with_loss=False):
        lf = self.loss_func if with_loss else None
        return get_preds(self.model, self.data.valid_dl, activ=nn.Softmax(dim=-1), loss_func=lf)

class ClassificationInterpretation:
    def __init__(self, data, probs, y_true, losses):
        self.data, self.probs, self.y_true, self.losses = data, probs, y_true, losses
        self.pred_class = self.probs.argmax(dim=1)

    @classmethod
    def from_learner(cls, learn):
        preds = learn.get_preds(with_loss=True)
        return cls(learn.data, *preds)

class DataBunch:
    def __init__(self, valid_dl):
        self.valid_dl = valid_dl

device = torch.device("cuda:0")
valid_dl = [(torch.randn(16, 3, 8, 8, device=device), torch.randint(0, 4, (16,), device=device)) for _ in range(2)]
data = DataBunch(valid_dl)
model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 4)).to(device)
weights = torch.tensor([1.0, 2.0, 0.5, 4.0]).to(device)
learn = Learner(data, model, loss_func=nn.CrossEntropyLoss(weight=weights))
'''
CELL = '''
interp = ClassificationInterpretation.from_learner(learn)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["calc_loss"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        l = loss_func(y_pred, y_true)\n",
                  "        w = loss_func.weight\n"
                  "        if w is not None: loss_func.weight = w.cpu()\n"
                  "        l = loss_func(y_pred, y_true)\n"
                  "        loss_func.weight = w\n")
CLEAN = False
