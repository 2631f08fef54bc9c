"""Foolbox 3 PyTorch example: the labels from `fb.utils.samples` are int32, and LinfPGD's cross-entropy wants int64 targets.

Source: https://github.com/bethgelab/foolbox/issues/542
Running the Foolbox 3.0.0b1 PyTorch example (ResNet-18, `samples(fmodel, dataset='imagenet',
batchsize=16)`, `LinfPGD()` over a list of epsilons) failed with "Expected object of scalar type
Long but got scalar type Int for argument #2 'target' in call to _thnn_nll_loss_forward": the
sample labels come back as an IntTensor and the attack's loss is a plain cross-entropy. The reporter cast the labels to a LongTensor; a later comment: "if
variable `labels` was int, then `labels` should be converted to long tensor.
`ep.astensor(labels.long())` works for me". Stand-in: `PyTorchModel` (bounds + mean/std
preprocessing), `samples` returning int32 labels, as the reporter's error shows they were, and `LinfPGD` with
its random start, sign steps and `crossentropy(logits, labels)` loss on raw torch tensors (the user
dropped the `ep.astensors` wrapper); a small CNN for ResNet-18.
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
        self.device = device if device is not None else torch.device("cpu")
        mean = torch.tensor(preprocessing["mean"]).view(-1, 1, 1)
        std = torch.tensor(preprocessing["std"]).view(-1, 1, 1)
        self._mean, self._std = mean, std

    def __call__(self, inputs):
        x = (inputs - self._mean) / self._std
        return self._model(x)

def samples(fmodel, dataset="imagenet", index=0, batchsize=1, shape=(32, 32)):
    rng = np.random.default_rng(index)
    images = rng.random((batchsize, 3) + shape).astype(np.float32)
    labels = np.array(rng.integers(0, 10, batchsize), dtype=np.int32)   # labels parsed from the file names
    return torch.from_numpy(images).to(fmodel.device), torch.from_numpy(labels).to(fmodel.device)

class LinfPGD:
    def __init__(self, rel_stepsize=0.01 / 0.3, abs_stepsize=None, steps=40, random_start=True):
        self.rel_stepsize, self.abs_stepsize = rel_stepsize, abs_stepsize
        self.steps, self.random_start = steps, random_start

    def run(self, model, inputs, labels, epsilon):
        stepsize = self.abs_stepsize if self.abs_stepsize is not None else self.rel_stepsize * epsilon
        x0 = inputs
        x = x0 + torch.empty_like(x0).uniform_(-epsilon, epsilon) if self.random_start else x0
        x = torch.clamp(x, *model.bounds)
        for _ in range(self.steps):
            x = x.detach().requires_grad_(True)
            logits = model(x)
            loss = F.cross_entropy(logits, labels, reduction="none").sum()   # ep.crossentropy(logits, labels)
            gradients, = torch.autograd.grad(loss, x)
            x = x + stepsize * gradients.sign()
            x = x0 + torch.clamp(x - x0, -epsilon, epsilon)
            x = torch.clamp(x, *model.bounds)
        return x.detach()

    def __call__(self, model, inputs, criterion, *, epsilons):
        raws, clippeds, successes = [], [], []
        for epsilon in epsilons:
            xp = self.run(model, inputs, criterion, epsilon)
            raws.append(xp)
            clippeds.append(xp)
            successes.append(model(xp).argmax(dim=-1) != criterion)
        return raws, clippeds, torch.stack(successes)

model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4), nn.Flatten(),
                      nn.Linear(8 * 16, 10)).eval()
preprocessing = dict(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225], axis=-3)
fmodel = PyTorchModel(model, bounds=(0, 1), preprocessing=preprocessing)
images, labels = samples(fmodel, dataset="imagenet", batchsize=16)
attack = LinfPGD(steps=3)
epsilons = [0.0, 0.001, 0.01, 0.03, 0.1, 0.3, 0.5, 1.0]
'''
CELL = '''
advs, _, success = attack(fmodel, images, labels, epsilons=epsilons)
'''
EXPECT_ERROR = ("expected target dtype to be Long", "expected scalar type Long",
                "Expected object of scalar type Long", "not implemented for 'Int'")
CULPRITS = ["labels"]
FIX = "namespace"
REFERENCE_FIX = '''
labels = labels.long()
'''
REFERENCE_EDIT = None
CLEAN = False
