"""Look-alike: torchattacks keeps the `set_normalization_used` mean/std as CPU tensors in a dict and moves them to the inputs' device in `normalize`.

Source: https://github.com/Harry24k/adversarial-attacks-pytorch/blob/master/torchattacks/attack.py
`Attack.set_normalization_used(mean, std)` stores `torch.tensor(mean).reshape(1, n_channels, 1, 1)`
(and the std) in `self.normalization_used`, a plain dict that no `.to()` ever visits; `normalize`
and `inverse_normalize` read `self.normalization_used['mean'].to(inputs.device)` at each call, and
`get_logits` normalizes before the model. With the model on the GPU and the loader's CPU images,
`PGD.forward` moves images and labels to `self.device` (the model's device), so the CPU constants
are always carried to where the inputs are. Stand-in: `Attack` (normalization, `get_logits`,
`__call__` without the [0, 1] range check, which reads values) and `PGD.forward` with a random
tensor for the `torch.autograd.grad` step (the simulator runs no autograd); a small MLP trained on
normalized CIFAR-10 for the user's model.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class Attack(object):
    def __init__(self, name, model):
        self.attack = name
        self.model = model
        self.device = next(model.parameters()).device
        self.normalization_used = {}
        self._normalization_applied = False

    def set_normalization_used(self, mean, std):
        n_channels = len(mean)
        mean = torch.tensor(mean).reshape(1, n_channels, 1, 1)
        std = torch.tensor(std).reshape(1, n_channels, 1, 1)
        self.normalization_used["mean"] = mean
        self.normalization_used["std"] = std
        self._normalization_applied = True

    def normalize(self, inputs):
        mean = self.normalization_used["mean"].to(inputs.device)
        std = self.normalization_used["std"].to(inputs.device)
        return (inputs - mean) / std

    def inverse_normalize(self, inputs):
        mean = self.normalization_used["mean"].to(inputs.device)
        std = self.normalization_used["std"].to(inputs.device)
        return inputs * std + mean

    def get_logits(self, inputs):
        if self._normalization_applied:
            inputs = self.normalize(inputs)
        return self.model(inputs)

    def __call__(self, images, labels=None):
        self.model.eval()
        return self.forward(images, labels)

class PGD(Attack):
    def __init__(self, model, eps=8 / 255, alpha=2 / 255, steps=10, random_start=True):
        super().__init__("PGD", model)
        self.eps, self.alpha, self.steps, self.random_start = eps, alpha, steps, random_start

    def forward(self, images, labels):
        images = images.clone().detach().to(self.device)
        labels = labels.clone().detach().to(self.device)
        loss = nn.CrossEntropyLoss()
        adv_images = images.clone().detach()
        if self.random_start:
            adv_images = adv_images + (torch.rand_like(adv_images) * 2 - 1) * self.eps
            adv_images = torch.clamp(adv_images, min=0, max=1).detach()
        for _ in range(self.steps):
            outputs = self.get_logits(adv_images)
            cost = loss(outputs, labels)
            grad = torch.randn_like(adv_images)          # torch.autograd.grad(cost, adv_images)
            adv_images = adv_images.detach() + self.alpha * grad.sign()
            delta = torch.clamp(adv_images - images, min=-self.eps, max=self.eps)
            adv_images = torch.clamp(images + delta, min=0, max=1).detach()
        return adv_images

device = torch.device("cuda:0")
model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 128), nn.ReLU(), nn.Linear(128, 10)).to(device)
atk = PGD(model, eps=8 / 255, alpha=2 / 255, steps=3, random_start=True)
atk.set_normalization_used(mean=[0.4914, 0.4822, 0.4465], std=[0.2023, 0.1994, 0.2010])
images, labels = torch.rand(16, 3, 32, 32), torch.randint(0, 10, (16,))   # next(iter(test_loader))
'''
CELL = '''
adv_images = atk(images, labels)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
