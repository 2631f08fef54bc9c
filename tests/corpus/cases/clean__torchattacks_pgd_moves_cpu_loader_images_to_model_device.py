"""Look-alike: torchattacks PGD is called with CPU images and labels from the loader while the model sits on the GPU.

Source: https://github.com/Harry24k/adversarial-attacks-pytorch/blob/master/torchattacks/attacks/pgd.py
`Attack.__init__` records `self.device = next(model.parameters()).device`, and `PGD.forward` starts
with `images = images.clone().detach().to(self.device)` / `labels = labels.clone().detach().to(self.device)`,
so the demo's `adv_images = atk(images, labels)` with `images, labels` straight from the CIFAR-10
loader runs: the random start, the `torch.autograd.grad` steps and the projection all happen on the
model's device. Stand-in: `Attack` / `PGD` reduced to the forward pass (no normalization wrapper,
no targeted mode), a small CNN for the robust ResNet; the GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class Attack(object):
    def __init__(self, name, model):
        self.attack = name
        self.model = model
        self.device = next(model.parameters()).device

    def get_logits(self, inputs):
        return self.model(inputs)

    def __call__(self, images, labels=None):
        given_training = self.model.training
        self.model.eval()
        adv_images = self.forward(images, labels)
        if given_training:
            self.model.train()
        return adv_images

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
            adv_images = adv_images + torch.empty_like(adv_images).uniform_(-self.eps, self.eps)
            adv_images = torch.clamp(adv_images, min=0, max=1).detach()
        for _ in range(self.steps):
            adv_images.requires_grad = True
            outputs = self.get_logits(adv_images)
            cost = loss(outputs, labels)
            grad = torch.autograd.grad(cost, adv_images, retain_graph=False, create_graph=False)[0]
            adv_images = adv_images.detach() + self.alpha * grad.sign()
            delta = torch.clamp(adv_images - images, min=-self.eps, max=self.eps)
            adv_images = torch.clamp(images + delta, min=0, max=1).detach()
        return adv_images

device = torch.device("meta")   # torch.device("cuda"), simulated with meta
model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4), nn.Flatten(),
                      nn.Linear(16 * 16, 10)).to(device)
atk = PGD(model, eps=8 / 255, alpha=2 / 255, steps=4)
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
