"""Katib DARTS trial: the architect's virtual step multiplies GPU weights by `torch.FloatTensor(xi)`, a CPU tensor.

Source: https://github.com/kubeflow/katib/pull/2273
Running Katib's `darts-cnn-cifar10` trial image on a GPU failed in `Architect.virtual_step`
(`vw.copy_(w - torch.FloatTensor(xi) * (m + g + self.w_weight_decay * w))`) with "Expected all
tensors to be on the same device, but found at least two devices, cuda:0 and cpu!". `xi` is the
learning-rate list from `lr_scheduler.get_last_lr()`, and `torch.FloatTensor(xi)` always builds a
one-element CPU tensor (not a scalar, so it cannot mix with CUDA tensors). The merged fix passes
the device to `Architect` and builds the lr tensor on it (`torch.cuda.FloatTensor(xi)` on a GPU);
the reference edit writes that as `torch.FloatTensor(xi).to(w.device)`.
Stand-ins: a two-op DARTS search network with the trial's `getWeights`/`getAlphas`/`loss`, and
Katib's `Architect`; the weight gradients (`torch.autograd.grad` in Katib) come from `.grad`
set after an earlier backward, since the simulated GPU has no autograd, and Katib's in-place
`vw.copy_(...)` / `va.copy_(a)` are written `zero_().add_(...)` (copies fail on the simulated GPU).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

class NetworkCNN(nn.Module):
    """Stand-in for Katib's DARTS search network: ops mixed by softmax(alpha)."""
    def __init__(self, init_channels, input_channels, num_classes, criterion, num_ops=3):
        super().__init__()
        self.criterion = criterion
        self.stem = nn.Conv2d(input_channels, init_channels, 3, padding=1, bias=False)
        self.ops = nn.ModuleList([
            nn.Conv2d(init_channels, init_channels, 3, padding=1, bias=False),
            nn.Conv2d(init_channels, init_channels, 1, bias=False),
            nn.Identity(),
        ])
        self.classifier = nn.Linear(init_channels, num_classes)
        self.alpha_normal = nn.ParameterList()
        self.alpha_normal.append(nn.Parameter(1e-3 * torch.randn(1, num_ops)))
        self.alphas = []
        for name, parameter in self.named_parameters():
            if "alpha" in name:
                self.alphas.append((name, parameter))

    def forward(self, x):
        weights_normal = [F.softmax(alpha, dim=-1) for alpha in self.alpha_normal]
        s = self.stem(x)
        s = sum(w * op(s) for w, op in zip(weights_normal[0][0], self.ops))
        return self.classifier(s.mean((2, 3)))

    def getWeights(self):
        return [p for n, p in self.named_parameters() if "alpha" not in n]

    def getAlphas(self):
        for _, parameter in self.alphas:
            yield parameter

    def loss(self, x, y):
        logits = self.forward(x)
        return self.criterion(logits, y)


class Architect():
    """Architect controls architecture of cell by computing gradients of alphas"""
    def __init__(self, model, w_momentum, w_weight_decay):
        self.model = model
        self.v_model = copy.deepcopy(model)
        self.w_momentum = w_momentum
        self.w_weight_decay = w_weight_decay

    def virtual_step(self, train_x, train_y, xi, w_optim):
        loss = self.model.loss(train_x, train_y)
        gradients = [w.grad for w in self.model.getWeights()]   # torch.autograd.grad(loss, weights)
        with torch.no_grad():
            for w, vw, g in zip(self.model.getWeights(), self.v_model.getWeights(), gradients):
                m = w_optim.state[w].get("momentum_buffer", 0.) * self.w_momentum
                vw.zero_().add_(w - torch.FloatTensor(xi) * (m + g + self.w_weight_decay * w))   # Katib: vw.copy_(...)
            for a, va in zip(self.model.getAlphas(), self.v_model.getAlphas()):
                va.zero_().add_(a)                # Katib: va.copy_(a)


device = torch.device("cuda:0")
w_lr, w_lr_min, w_momentum, w_weight_decay = 0.025, 0.001, 0.9, 3e-4
num_epochs = 50
criterion = nn.CrossEntropyLoss().to(device)
model = NetworkCNN(4, 3, 10, criterion)
model = model.to(device)
w_optim = torch.optim.SGD(model.getWeights(), w_lr, momentum=w_momentum, weight_decay=w_weight_decay)
alpha_optim = torch.optim.Adam(model.getAlphas(), 3e-4, betas=(0.5, 0.999), weight_decay=1e-3)
lr_scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(w_optim, num_epochs, eta_min=w_lr_min)
architect = Architect(model, w_momentum, w_weight_decay)

train_x = torch.randn(8, 3, 16, 16, device=device)
train_y = torch.randint(0, 10, (8,), device=device)
for p in model.getWeights():
    p.grad = torch.ones_like(p)        # gradients of the previous step
'''
CELL = '''
lr = lr_scheduler.get_last_lr()
architect.virtual_step(train_x, train_y, lr, w_optim)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["architect"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("(w - torch.FloatTensor(xi) * (m + g",
                  "(w - torch.FloatTensor(xi).to(w.device) * (m + g")
CLEAN = False
