"""torchattacks 3.3.0 CW on the GPU: `CW.f` builds the one-hot targets by indexing a CPU `torch.eye` with the GPU labels.

Source: https://github.com/Harry24k/adversarial-attacks-pytorch/issues/120
The user generates FGSM/BIM/PGD/DeepFool examples on the GPU without trouble, but `CW` fails in
`f` at `one_hot_labels = torch.eye(len(outputs[0]))[labels].to(self.device)` with "indices should
be either on cpu or on the same device as the indexed tensor (cpu)": the identity is made on the
CPU and indexed with labels that `forward` already moved to `self.device`; the `.to` comes too
late. The fix (PR #104, released after 3.3.0): `torch.eye(outputs.shape[1]).to(self.device)[labels]`.
Stand-in: `Attack`/`CW` reduced to the objective evaluations (the simulator runs no autograd, so
Adam's step on `w` is a random step, and early stopping, which reads a tensor's value, is left
out); the row lookup is written `index_select` and `len(outputs[0])` as `outputs.shape[1]` (the
simulator cannot index fake GPU tensors with `[]`), the masked best-image update as `torch.where`.
"""

SIM = "fake_cuda"
FAMILY = "device-index"
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
        one_hot_labels = torch.eye(outputs.shape[1]).index_select(0, labels).to(self.device)
        other = torch.max((1 - one_hot_labels) * outputs, dim=1)[0]
        real = torch.max(one_hot_labels * outputs, dim=1)[0]
        if self.targeted:
            return torch.clamp((other - real), min=-self.kappa)
        return torch.clamp((real - other), min=-self.kappa)

device = torch.device("cuda:0")
model = nn.Sequential(nn.Flatten(), nn.Linear(784, 64), nn.ReLU(), nn.Linear(64, 10)).to(device)
images = torch.rand(32, 1, 28, 28).to(device)     # the dataset loaded on the GPU first
labels = torch.randint(0, 10, (32,)).to(device)
atk = CW(model, c=1, kappa=0, steps=3, lr=0.01)
'''
CELL = '''
adv_images = atk(images, labels)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device",
                "indices should be either on cpu or on the same device as the indexed tensor")
CULPRITS = ["atk"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("one_hot_labels = torch.eye(outputs.shape[1]).index_select(0, labels).to(self.device)",
                  "one_hot_labels = torch.eye(outputs.shape[1]).to(self.device).index_select(0, labels)")
CLEAN = False
