"""Foolbox 3 example on Windows: the ImageNet sample labels come out of numpy as int32 and reach the attack's cross-entropy.

Source: https://github.com/bethgelab/foolbox/issues/593
"Getting 'Expected object of scalar type Long but got scalar type Int for argument #2 'target' in call
to _thnn_nll_loss_forward' when running single_attack_pytorch_resnet18.py immediately after install
... Running on Windows through Anaconda" (also #647; the fix given there: cast the labels to long).
`foolbox.utils.samples` builds the labels with `np.array(labels)` (int32 on Windows) and
`torch.from_numpy`; `LinfPGD` computes `crossentropy(logits, labels)`. Stand-in: a small CNN for
resnet18, `PyTorchModel` keeping the example's mean/std preprocessing, `samples` returning random
images with int32 labels, one PGD step with the gradient by autograd (no eagerpy).
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
        self.device = torch.device("cpu") if device is None else device
        self._mean = torch.tensor(preprocessing["mean"], device=self.device).view(1, 3, 1, 1)
        self._std = torch.tensor(preprocessing["std"], device=self.device).view(1, 3, 1, 1)

    def __call__(self, inputs):
        return self._model((inputs - self._mean) / self._std)

def samples(fmodel, dataset="imagenet", index=0, batchsize=1):
    images = np.random.rand(batchsize, 3, 64, 64).astype(np.float32)
    labels = np.array([int(i * 37 % 1000) for i in range(batchsize)]).astype(np.int32)  # np.array(labels) on Windows
    images = torch.from_numpy(images).to(fmodel.device)
    labels = torch.from_numpy(labels).to(fmodel.device)
    return images, labels

def accuracy(fmodel, inputs, labels):
    predictions = fmodel(inputs).argmax(axis=-1)
    return (predictions == labels).float().mean().item()

class LinfPGD:
    def __init__(self, rel_stepsize=0.01 / 0.3, steps=1):
        self.rel_stepsize, self.steps = rel_stepsize, steps

    def get_loss_fn(self, model, labels):
        def loss_fn(inputs):
            logits = model(inputs)
            return F.cross_entropy(logits, labels, reduction="none").sum()
        return loss_fn

    def __call__(self, model, inputs, criterion, *, epsilons):
        loss_fn = self.get_loss_fn(model, criterion)
        results = []
        for epsilon in epsilons:
            x = inputs.clone().requires_grad_(True)
            for _ in range(self.steps):
                loss = loss_fn(x)
                gradients, = torch.autograd.grad(loss, x)
                x = x + self.rel_stepsize * epsilon * gradients.sign()
                x = torch.min(torch.max(x, inputs - epsilon), inputs + epsilon).clamp(*model.bounds)
            results.append(x.detach())
        return results, results, [model(x).argmax(-1) != criterion for x in results]

model = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                      nn.Linear(16, 1000)).eval()
preprocessing = dict(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225], axis=-3)
fmodel = PyTorchModel(model, bounds=(0, 1), preprocessing=preprocessing)
images, labels = samples(fmodel, dataset="imagenet", batchsize=16)
clean_acc = accuracy(fmodel, images, labels)
'''
CELL = '''
attack = LinfPGD()
epsilons = [0.0, 0.001, 0.01, 0.03, 0.1, 0.3, 0.5, 1.0]
raw_advs, clipped_advs, success = attack(fmodel, images, labels, epsilons=epsilons)
'''
EXPECT_ERROR = "expected target dtype to be Long or Byte, but got Int"
CULPRITS = ["labels"]
FIX = "namespace"
REFERENCE_FIX = '''
labels = labels.long()
'''
REFERENCE_EDIT = None
CLEAN = False
