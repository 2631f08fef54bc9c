"""Look-alike: Avalanche's EWC keeps per-experience dicts of `ParamData` (default `device="cpu"`) for saved parameters and importances, but their tensors live on the model's device.

Source: https://github.com/ContinualAI/avalanche/blob/master/avalanche/training/plugins/ewc.py (EWCPlugin.before_backward)
and https://github.com/ContinualAI/avalanche/blob/master/avalanche/training/utils.py (ParamData, copy_params_dict, zerolike_params_dict)
After each experience the plugin stores `copy_params_dict(model)` (clones of `p.data`) and the
importances from `zerolike_params_dict(model)` (`ParamData(k, p.shape, device=p.device)`), two
dicts of plain Python objects outside the module whose `ParamData.device` field defaults to "cpu";
`before_backward` sums `imp.expand(shape) * (cur_param - saved_param.expand(shape)).pow(2)` into
a penalty built with `.to(strategy.device)`. Every tensor is on cuda:0: nothing is misplaced.
Stand-ins: `ParamData`, the two dict helpers, a minimal strategy (`model`, `device`, `clock`,
`loss`) and `EWCPlugin` in "separate" mode; importances are random instead of squared gradients
(fake cuda has no autograd); a small MLP for the Split-MNIST `SimpleMLP`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn

class ParamData(object):
    def __init__(self, name, shape=None, init_function=torch.zeros, init_tensor=None, device="cpu"):
        self.init_function = init_function
        self.name = name
        self.shape = torch.Size(shape) if shape is not None else init_tensor.size()
        self.device = torch.device(device)
        if init_tensor is not None:
            self._data = init_tensor
        else:
            self.reset_like()

    def reset_like(self, shape=None, init_function=None):
        if shape is not None:
            self.shape = torch.Size(shape)
        if init_function is None:
            init_function = self.init_function
        self._data = init_function(self.shape).to(self.device)

    def expand(self, new_shape, padding_fn=torch.zeros):
        expanded = False
        for i, (snew, sold) in enumerate(zip(new_shape, self.shape)):
            if snew > sold:
                expanded = True
                exp_idx = i
        if expanded:
            old_data = self._data.clone()
            old_shape_len = self._data.shape[exp_idx]
            self.reset_like(new_shape, init_function=padding_fn)
            idx = [slice(el) if i != exp_idx else slice(old_shape_len) for i, el in enumerate(new_shape)]
            self._data[idx] = old_data
        return self.data

    @property
    def data(self):
        return self._data

def zerolike_params_dict(model):
    return dict([(k, ParamData(k, p.shape, device=p.device)) for k, p in model.named_parameters()])

def copy_params_dict(model, copy_grad=False):
    out = {}
    for k, p in model.named_parameters():
        init = p.grad.data.clone() if copy_grad else p.data.clone()
        out[k] = ParamData(k, init_tensor=init)
    return out

class EWCPlugin:
    def __init__(self, ewc_lambda, mode="separate"):
        self.ewc_lambda = ewc_lambda
        self.mode = mode
        self.saved_params = {}
        self.importances = {}

    def before_backward(self, strategy, **kwargs):
        exp_counter = strategy.clock.train_exp_counter
        if exp_counter == 0:
            return
        penalty = torch.tensor(0).float().to(strategy.device)
        if self.mode == "separate":
            for experience in range(exp_counter):
                for k, cur_param in strategy.model.named_parameters():
                    if k not in self.saved_params[experience]:
                        continue
                    saved_param = self.saved_params[experience][k]
                    imp = self.importances[experience][k]
                    new_shape = cur_param.shape
                    penalty += (imp.expand(new_shape) * (cur_param - saved_param.expand(new_shape)).pow(2)).sum()
        strategy.loss += self.ewc_lambda * penalty

device = torch.device("cuda:0")
model = nn.Sequential(nn.Linear(28 * 28, 128), nn.ReLU(), nn.Linear(128, 10)).to(device)
ewc = EWCPlugin(ewc_lambda=0.4)
ewc.saved_params[0] = copy_params_dict(model)            # after_training_exp of experience 0
ewc.importances[0] = zerolike_params_dict(model)
for k, p in model.named_parameters():
    ewc.importances[0][k]._data = torch.rand(p.shape, device=p.device)   # mean squared grads
strategy = SimpleNamespace(model=model, device=device, clock=SimpleNamespace(train_exp_counter=1), loss=None)
x = torch.randn(32, 28 * 28, device=device)
y = torch.randint(0, 10, (32,), device=device)
'''
CELL = '''
strategy.loss = nn.functional.cross_entropy(strategy.model(x), y)
ewc.before_backward(strategy)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
