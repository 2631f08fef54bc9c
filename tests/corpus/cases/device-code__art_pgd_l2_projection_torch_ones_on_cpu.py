"""ART ProjectedGradientDescentPyTorch on a GPU classifier: `_projection` clips with `torch.ones(1)` made on the CPU.

Source: https://github.com/Trusted-AI/adversarial-robustness-toolbox/issues/2553
The user wrapped a model in `PyTorchClassifier` on the GPU and ran `ProjectedGradientDescent(...)
.generate(x)`: "RuntimeError: Expected all tensors to be on the same device, but found at least two
devices, cuda:0 and cpu!", raised in `_projection`, where the L2 ball projection takes
`torch.min(torch.ones(1), eps / (torch.norm(values_tmp, p=2, dim=1) + tol))`: `torch.ones(1)` is
a one-element CPU tensor (not a 0-dim scalar), `values_tmp` lives on the estimator's device.
Stand-in: a minimal `PyTorchClassifier` (`loss_gradient` by autograd) and the attack's
`generate` / `_generate_batch` / `_compute_torch` / `_projection` chain for `norm=2`, no random
init, no NaN check (it branches on a device tensor), `generate` returns the tensor instead of
numpy; the GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class PyTorchClassifier:
    def __init__(self, model, loss, input_shape, nb_classes, clip_values=None, device_type="gpu"):
        self._model = model
        self._loss = loss
        self.input_shape = input_shape
        self.nb_classes = nb_classes
        self.clip_values = clip_values
        self._device = torch.device("meta") if device_type == "gpu" else torch.device("cpu")  # cuda:0 on a GPU
        self._model.to(self._device)

    @property
    def device(self):
        return self._device

    def loss_gradient(self, x, y):
        x_grad = x.clone().detach().requires_grad_(True)
        loss = self._loss(self._model(x_grad), y)
        self._model.zero_grad()
        loss.backward()
        return x_grad.grad

class ProjectedGradientDescentPyTorch:
    def __init__(self, estimator, norm=np.inf, eps=0.3, eps_step=0.1, max_iter=100, targeted=False, batch_size=32):
        self.estimator = estimator
        self.norm, self.eps, self.eps_step = norm, eps, eps_step
        self.max_iter, self.targeted, self.batch_size = max_iter, targeted, batch_size

    def generate(self, x, y):
        x_t = torch.from_numpy(x.astype(np.float32))
        y_t = torch.from_numpy(y)
        adv = []
        for start in range(0, len(x_t), self.batch_size):
            adv.append(self._generate_batch(x_t[start:start + self.batch_size], y_t[start:start + self.batch_size],
                                            self.eps, self.eps_step))
        return torch.cat(adv)

    def _generate_batch(self, x, targets, eps, eps_step):
        inputs = x.to(self.estimator.device)
        targets = targets.to(self.estimator.device)
        adv_x = torch.clone(inputs)
        for i_max_iter in range(self.max_iter):
            adv_x = self._compute_torch(adv_x, inputs, targets, eps, eps_step)
        return adv_x.detach()

    def _compute_perturbation(self, x, y):
        tol = 10e-8
        grad = self.estimator.loss_gradient(x=x, y=y) * (1 - 2 * int(self.targeted))
        if self.norm == 2:
            ind = tuple(range(1, len(x.shape)))
            grad = grad / (torch.sqrt(torch.sum(grad * grad, axis=ind, keepdims=True)) + tol)
        else:
            grad = grad.sign()
        return grad

    def _apply_perturbation(self, x, perturbation, eps_step):
        eps_step = np.array(eps_step, dtype=np.float32)
        x = x + torch.tensor(eps_step).to(self.estimator.device) * perturbation
        if self.estimator.clip_values is not None:
            clip_min, clip_max = self.estimator.clip_values
            x = torch.clamp(x, clip_min, clip_max)
        return x

    def _compute_torch(self, x, x_init, y, eps, eps_step):
        perturbation = self._compute_perturbation(x, y)
        x_adv = self._apply_perturbation(x, perturbation, eps_step)
        perturbation = self._projection(x_adv - x_init, eps, self.norm)
        return perturbation + x_init

    def _projection(self, values, eps, norm_p):
        tol = 10e-8
        values_tmp = values.reshape(values.shape[0], -1)
        if norm_p == 2:
            values_tmp = values_tmp * torch.min(
                torch.ones(1), eps / (torch.norm(values_tmp, p=2, dim=1) + tol)
            ).unsqueeze_(-1)
        else:
            values_tmp = values_tmp.sign() * torch.clamp(values_tmp.abs(), max=eps)
        return values_tmp.reshape(values.shape)

model = nn.Sequential(nn.Conv2d(1, 8, 3), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 26 * 26, 10))
classifier = PyTorchClassifier(model=model, loss=nn.CrossEntropyLoss(), input_shape=(1, 28, 28),
                               nb_classes=10, clip_values=(0.0, 1.0), device_type="gpu")
attack = ProjectedGradientDescentPyTorch(estimator=classifier, norm=2, eps=1.0, eps_step=0.2, max_iter=3)
x_test = np.random.rand(16, 1, 28, 28).astype(np.float32)
y_test = np.random.randint(0, 10, size=16).astype(np.int64)
'''
CELL = '''
x_test_adv = attack.generate(x=x_test, y=y_test)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["attack"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("torch.ones(1), eps", "torch.ones(1, device=values_tmp.device), eps")
CLEAN = False
