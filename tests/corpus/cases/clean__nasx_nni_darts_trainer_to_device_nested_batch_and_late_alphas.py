"""NNI one-shot DartsTrainer: architecture alphas created after `model.to(device)` are moved explicitly, and dict batches go through `to_device`.

Source: https://github.com/microsoft/nni/blob/v2.4/nni/retiarii/oneshot/pytorch/darts.py
In NNI 2.4, `DartsTrainer.__init__` calls `self.model.to(self.device)` first and only then replaces
every `LayerChoice` with a `DartsLayerChoice` whose `alpha` is a fresh CPU `nn.Parameter`; it then
runs `module.to(self.device)` on each new NAS module. Each step moves the batch with
`to_device` (nni/retiarii/oneshot/pytorch/utils.py), which recurses through tuples, lists and
dicts, so a custom dataset that yields dict features works. Look-alike: modules created after the
model was moved, and a dict of CPU tensors, all moved before use.
Stand-ins: `LayerChoice` and `replace_layer_choice`, `DartsLayerChoice` and `to_device` as in NNI,
the trainer's `__init__`/`_logits_and_loss` (no dataloader or training step: no autograd on the
simulated GPU), a tabular search model with one layer choice, `cuda:0` for `cuda`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class LayerChoice(nn.Module):
    def __init__(self, candidates, label):
        super().__init__()
        self.key = label
        for name, module in candidates.items():
            self.add_module(name, module)

def replace_layer_choice(root_module, init_fn, modules=None):
    if modules is None:
        modules = []
    for name, child in list(root_module.named_children()):
        if isinstance(child, LayerChoice):
            new_module = init_fn(child)
            setattr(root_module, name, new_module)
            modules.append((name, new_module))
        else:
            replace_layer_choice(child, init_fn, modules)
    return modules

def to_device(obj, device):
    if torch.is_tensor(obj):
        return obj.to(device)
    if isinstance(obj, tuple):
        return tuple(to_device(t, device) for t in obj)
    if isinstance(obj, list):
        return [to_device(t, device) for t in obj]
    if isinstance(obj, dict):
        return {k: to_device(v, device) for k, v in obj.items()}
    if isinstance(obj, (int, float, str)):
        return obj
    raise ValueError("'%s' has unsupported type '%s'" % (obj, type(obj)))

class DartsLayerChoice(nn.Module):
    def __init__(self, layer_choice):
        super(DartsLayerChoice, self).__init__()
        self.name = layer_choice.key
        self.op_choices = nn.ModuleDict(layer_choice.named_children())
        self.alpha = nn.Parameter(torch.randn(len(self.op_choices)) * 1e-3)

    def forward(self, *args, **kwargs):
        op_results = torch.stack([op(*args, **kwargs) for op in self.op_choices.values()])
        alpha_shape = [-1] + [1] * (len(op_results.size()) - 1)
        return torch.sum(op_results * F.softmax(self.alpha, -1).view(*alpha_shape), 0)

class DartsTrainer:
    def __init__(self, model, loss, metrics, optimizer, num_epochs, dataset, device=None,
                 arc_learning_rate=3.0E-4):
        self.model = model
        self.loss = loss
        self.metrics = metrics
        self.num_epochs = num_epochs
        self.dataset = dataset
        self.device = torch.device('cuda:0') if device is None else device   # 'cuda' if available
        self.model.to(self.device)
        self.nas_modules = []
        replace_layer_choice(self.model, DartsLayerChoice, self.nas_modules)
        for _, module in self.nas_modules:
            module.to(self.device)
        self.model_optim = optimizer
        ctrl_params = {}
        for _, m in self.nas_modules:
            ctrl_params[m.name] = m.alpha
        self.ctrl_optim = torch.optim.Adam(list(ctrl_params.values()), arc_learning_rate,
                                           betas=(0.5, 0.999), weight_decay=1.0E-3)

    def _logits_and_loss(self, X, y):
        logits = self.model(X)
        loss = self.loss(logits, y)
        return logits, loss

class TabularSearchNet(nn.Module):
    def __init__(self, n_num=8, n_cat=20, hidden=32, n_classes=3):
        super().__init__()
        self.cat_emb = nn.Embedding(n_cat, hidden)
        self.num_proj = nn.Linear(n_num, hidden)
        self.block = LayerChoice({
            "linear": nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU()),
            "mlp": nn.Sequential(nn.Linear(hidden, 2 * hidden), nn.ReLU(), nn.Linear(2 * hidden, hidden)),
        }, label="block")
        self.head = nn.Linear(hidden, n_classes)
    def forward(self, batch):
        h = self.num_proj(batch["numerical"]) + self.cat_emb(batch["categorical"]).sum(1)
        return self.head(self.block(h))

model = TabularSearchNet()
criterion = nn.CrossEntropyLoss()
optim = torch.optim.SGD(model.parameters(), 0.025, momentum=0.9, weight_decay=3.0E-4)
dataset = [({"numerical": torch.randn(32, 8), "categorical": torch.randint(0, 20, (32, 2))},
            torch.randint(0, 3, (32,))) for _ in range(2)]
trainer = DartsTrainer(model, loss=criterion, metrics=None, optimizer=optim, num_epochs=1, dataset=dataset)
'''
CELL = '''
trn_X, trn_y = dataset[0]
trn_X, trn_y = to_device(trn_X, trainer.device), to_device(trn_y, trainer.device)
with torch.no_grad():
    logits, loss = trainer._logits_and_loss(trn_X, trn_y)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
