"""Look-alike: secml-torch's Adversarial Library wrapper takes CPU batches from the loader and moves them to the model's device inside `_run`.

Source: https://github.com/pralab/secml-torch/blob/main/src/secmlt/adv/evasion/advlib_attacks/advlib_base.py
`BaseAdvLibEvasionAttack._run` reads `device = model._get_device()` and sends `samples` and
`labels` there before calling the adv_lib attack, so `attack(model, test_loader)` with a plain CPU
MNIST `DataLoader` and the network on the GPU runs: logits, labels and perturbation all meet on the
model's device (`delta = advx - samples` is computed against the moved samples). Stand-in:
`BasePytorchClassifier`, `BaseEvasionAttack.__call__` over a list of CPU batches for the
DataLoader, the wrapper's `_run`, and adv_lib's `pgd` reduced to its loss and sign steps (a random
tensor stands in for the gradient, since the simulator runs no autograd).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class BasePytorchClassifier:
    def __init__(self, model):
        self._model = model

    def _get_device(self):
        return next(self._model.parameters()).device

    def decision_function(self, x):
        x = x.to(device=self._get_device())
        return self._model(x)

    def __call__(self, x):
        return self.decision_function(x)

def pgd(model, inputs, labels, ε, targeted=False, steps=10, random_init=True, restarts=1,
        loss_function="ce", relative_step_size=0.1):
    multiplier = -1 if targeted else 1
    step_size = ε * relative_step_size
    δ = torch.zeros_like(inputs)
    for i in range(steps):
        logits = model(inputs + δ)
        loss = multiplier * F.cross_entropy(logits, labels, reduction="none")
        grad = torch.randn_like(δ)                     # grad(loss.sum(), δ)
        δ = δ + step_size * grad.sign()
        δ = δ.clamp(-ε, ε)
        δ = (inputs + δ).clamp(0, 1) - inputs
    return inputs + δ

class BaseEvasionAttack:
    def __call__(self, model, data_loader):
        all_adv, all_original, all_labels = [], [], []
        for samples, labels in data_loader:
            x_adv, _ = self._run(model, samples, labels)
            all_adv.append(x_adv)
            all_original.append(samples)
            all_labels.append(labels)
        return list(zip(all_adv, all_labels))

class BaseAdvLibEvasionAttack(BaseEvasionAttack):
    def __init__(self, advlib_attack, epsilon=float("inf"), y_target=None, loss_function="ce",
                 lb=0.0, ub=1.0):
        self.advlib_attack = advlib_attack
        self.epsilon = epsilon
        self.y_target = y_target
        self.loss_function = loss_function
        self.lb, self.ub = lb, ub

    def _run(self, model, samples, labels):
        if not isinstance(model, BasePytorchClassifier):
            raise NotImplementedError("Model type not supported.")
        device = model._get_device()
        samples = samples.to(device)
        labels = labels.to(device)
        advx = self.advlib_attack(model=model, inputs=samples, labels=labels, ε=self.epsilon,
                                  targeted=(self.y_target is not None), loss_function=self.loss_function)
        delta = advx - samples
        return advx, delta

class PGDAdvLib(BaseAdvLibEvasionAttack):
    def __init__(self, perturbation_model, epsilon, num_steps, random_start=False, step_size=0.1,
                 loss_function="ce", y_target=None):
        def advlib_pgd(**kwargs):
            return pgd(steps=num_steps, random_init=random_start,
                       relative_step_size=step_size / epsilon, **kwargs)
        super().__init__(advlib_pgd, epsilon=epsilon, y_target=y_target, loss_function=loss_function)

device = torch.device("cuda:0")
net = nn.Sequential(nn.Flatten(), nn.Linear(784, 200), nn.ReLU(), nn.Linear(200, 10)).to(device)
net.eval()
model = BasePytorchClassifier(net)
test_loader = [(torch.rand(16, 1, 28, 28), torch.randint(0, 10, (16,))) for _ in range(2)]   # MNIST DataLoader
native_attack = PGDAdvLib(perturbation_model="linf", epsilon=0.3, num_steps=5, random_start=False,
                          step_size=0.05)
'''
CELL = '''
adv_ds = native_attack(model, test_loader)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
