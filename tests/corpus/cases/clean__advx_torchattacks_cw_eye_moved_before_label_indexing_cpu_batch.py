"""Look-alike: torchattacks' current CW builds the one-hot identity on the CPU, moves it to the attack's device, then indexes it with the labels; the batch itself comes from the CPU loader.

Source: https://github.com/Harry24k/adversarial-attacks-pytorch/blob/master/torchattacks/attacks/cw.py
`CW.f` reads `one_hot_labels = torch.eye(outputs.shape[1]).to(self.device)[labels]` (the PR #104
form): the CPU `torch.eye` is moved before the GPU labels index it, and `forward` starts with
`images.clone().detach().to(self.device)` / `labels...to(self.device)`, so `atk(images, labels)`
with CPU loader tensors and the model on the GPU runs. Stand-in: `Attack`/`CW` reduced to the
objective evaluations (a random step stands in for Adam on `w`, no early stopping, which reads a
tensor's value); the row lookup is written `index_select` and the masked best-image update
`torch.where` (the simulator cannot index fake GPU tensors with `[]`).
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
        self.targeted = False

    def get_logits(self, inputs):
        return self.model(inputs)

    def __call__(self, inputs, labels=None):
        self.model.eval()
        return self.forward(inputs, labels)

class CW(Attack):
    def __init__(self, model, c=1, kappa=0, steps=50, lr=0.01):
        super().__init__("CW", model)
        self.c, self.kappa, self.steps, self.lr = c, kappa, steps, lr

    def forward(self, images, labels):
        images = images.clone().detach().to(self.device)
        labels = labels.clone().detach().to(self.device)
        w = self.inverse_tanh_space(images).detach()
        best_adv_images = images.clone().detach()
        batch_size = len(images)
        best_L2 = 1e10 * torch.ones((batch_size,)).to(self.device)
        MSELoss = nn.MSELoss(reduction="none")
        Flatten = nn.Flatten()
        for step in range(self.steps):
            adv_images = self.tanh_space(w)
            current_L2 = MSELoss(Flatten(adv_images), Flatten(images)).sum(dim=1)
            L2_loss = current_L2.sum()
            outputs = self.get_logits(adv_images)
            f_loss = self.f(outputs, labels).sum()
            cost = L2_loss + self.c * f_loss
            w = w - self.lr * torch.randn_like(w)       # cost.backward(); optimizer.step()
            pre = torch.argmax(outputs.detach(), 1)
            condition = (pre != labels).float()
            mask = condition * (best_L2 > current_L2.detach())
            best_L2 = mask * current_L2.detach() + (1 - mask) * best_L2
            best_adv_images = torch.where(mask.view(-1, 1, 1, 1) > 0, adv_images.detach(), best_adv_images)
        return best_adv_images

    def tanh_space(self, x):
        return 1 / 2 * (torch.tanh(x) + 1)

    def inverse_tanh_space(self, x):
        return self.atanh(torch.clamp(x * 2 - 1, min=-1, max=1))

    def atanh(self, x):
        return 0.5 * torch.log((1 + x) / (1 - x))

    def f(self, outputs, labels):
        one_hot_labels = torch.eye(outputs.shape[1]).to(self.device).index_select(0, labels)
        other = torch.max((1 - one_hot_labels) * outputs, dim=1)[0]
        real = torch.max(one_hot_labels * outputs, dim=1)[0]
        if self.targeted:
            return torch.clamp((other - real), min=-self.kappa)
        return torch.clamp((real - other), min=-self.kappa)

device = torch.device("cuda:0")
model = nn.Sequential(nn.Flatten(), nn.Linear(784, 64), nn.ReLU(), nn.Linear(64, 10)).to(device)
images = torch.rand(32, 1, 28, 28)                # a CPU batch from the test loader
labels = torch.randint(0, 10, (32,))
atk = CW(model, c=1, kappa=0, steps=3, lr=0.01)
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
