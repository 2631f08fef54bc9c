"""fastai v1 `Learner.export`: the model is moved to the CPU to be serialised, then put back on the GPU.

Source: https://github.com/fastai/fastai1/blob/master/fastai/basic_train.py (Learner.export) and fastai/torch_core.py (ModelOnCPU)
`Learner.export` builds its state inside `with ModelOnCPU(self.model) as m:`; the context manager
records the model's device (`one_param(self.model).device`), returns `self.model.cpu()` for pickling,
and moves the model back with `self.model.to(self.device)` on exit, so training/inference on the GPU
can continue right after the export. Look-alike: a model held on the CPU for export inside a GPU session.
Stand-ins: `ModelOnCPU`, `one_param`, a reduced `Learner.export` that keeps the exported state in memory
instead of `try_save` (no file is written).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def one_param(m):
    "Return the first parameter of `m`."
    return next(m.parameters())

class ModelOnCPU():
    "A context manager to evaluate `model` on the CPU inside."
    def __init__(self, model):
        self.model = model

    def __enter__(self):
        self.device = one_param(self.model).device
        return self.model.cpu()

    def __exit__(self, type, value, traceback):
        self.model = self.model.to(self.device)

class Learner:
    def __init__(self, model, loss_func):
        self.model, self.loss_func = model, loss_func
        self.exported = None

    def export(self, file='export.pkl'):
        state = {'loss_func': self.loss_func}
        with ModelOnCPU(self.model) as m:
            state['model'] = m
            state['model_device'] = one_param(m).device
            state['cls'] = self.__class__
            self.exported = state            # try_save(state, self.path, file)

device = torch.device("cuda:0")
model = nn.Sequential(nn.Embedding(50, 8), nn.Flatten(), nn.Linear(8 * 6, 2)).to(device)
learn = Learner(model, nn.CrossEntropyLoss())
xb = torch.randint(0, 50, (16, 6), device=device)
'''
CELL = '''
learn.export()
with torch.no_grad():
    preds = learn.model(xb).softmax(-1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
