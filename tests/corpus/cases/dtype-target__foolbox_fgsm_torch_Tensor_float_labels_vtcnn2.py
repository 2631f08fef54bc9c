"""Foolbox LinfFastGradientAttack on a radio-signal CNN: the labels were built with `torch.Tensor(Y_train)` and are float32.

Source: https://github.com/bethgelab/foolbox/issues/701
The user loaded a pickled `VTCNN2` modulation classifier, wrapped it in `PyTorchModel(model,
bounds=(-1, 1))`, made `x_train, y_train = torch.Tensor(X_train), torch.Tensor(Y_train)` (their
TensorDatasets cast the labels with `.type(torch.LongTensor)`, but the attack got `y_train` itself),
printed `torch.float32` for `y_train.dtype`, and `attack(fmodel, x_train, y_train, epsilons=0.3)`
failed in the attack's cross-entropy: "'nll_loss_forward_no_reduce_cuda_kernel_index' not implemented
for 'Float'" (on the CPU today: "expected target dtype to be Long or Byte, but got Float").
Stand-in: a small VTCNN2, `PyTorchModel` / `accuracy` / `LinfFastGradientAttack` without eagerpy
(one signed-gradient step by autograd), random signals and labels, on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class PyTorchModel:
    def __init__(self, model, bounds, device=None, preprocessing=None):
        self._model = model
        self.bounds = bounds

    def __call__(self, inputs):
        return self._model(inputs)

def accuracy(fmodel, inputs, labels):
    predictions = fmodel(inputs).argmax(axis=-1)
    return (predictions == labels).float().mean().item()

class LinfFastGradientAttack:
    def __init__(self, random_start=False):
        self.random_start = random_start

    def get_loss_fn(self, model, labels):
        def loss_fn(inputs):
            logits = model(inputs)
            return F.cross_entropy(logits, labels, reduction="none").sum()
        return loss_fn

    def __call__(self, model, inputs, criterion, *, epsilons):
        loss_fn = self.get_loss_fn(model, criterion)
        x = inputs.clone().requires_grad_(True)
        gradients, = torch.autograd.grad(loss_fn(x), x)
        adv = (inputs + epsilons * gradients.sign()).clamp(*model.bounds).detach()
        is_adv = model(adv).argmax(-1) != criterion
        return adv, adv, is_adv

class VTCNN2(nn.Module):
    def __init__(self, n_classes=11):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 32, kernel_size=(1, 3), padding=(0, 2))
        self.conv2 = nn.Conv2d(32, 16, kernel_size=(2, 3), padding=(0, 2))
        self.fc1 = nn.Linear(16 * 1 * 132, 64)
        self.fc2 = nn.Linear(64, n_classes)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        return self.fc2(F.relu(self.fc1(x.flatten(1))))

device = torch.device("cpu")
X_train = np.random.randn(200, 2, 128).astype(np.float32)
Y_train = np.random.randint(0, 11, size=200).astype(np.float32)
X_train = torch.from_numpy(X_train)
X_train = X_train.reshape([200, 2, 128]).unsqueeze(dim=1)
x_train, y_train = torch.Tensor(X_train), torch.Tensor(Y_train)
x_train = x_train.to(device)
y_train = y_train.to(device)
model = VTCNN2().eval()                      # torch.load('VTCNN2_9c.pth').eval()
fmodel = PyTorchModel(model, bounds=(-1, 1))
attack = LinfFastGradientAttack()
clean_acc = accuracy(fmodel, x_train, y_train)
'''
CELL = '''
raw_advs, clipped_advs, success = attack(fmodel, x_train, y_train, epsilons=0.3)
'''
EXPECT_ERROR = ("expected target dtype to be Long or Byte, but got Float", "not implemented for 'Float'")
CULPRITS = ["y_train"]
FIX = "namespace"
REFERENCE_FIX = '''
y_train = y_train.long()
'''
REFERENCE_EDIT = None
CLEAN = False
