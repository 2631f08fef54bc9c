"""torchattacks v1.x PGD on a model placed on cuda:1: `Attack` records a bare "cuda" device, so images go to cuda:0.

Source: https://github.com/Harry24k/adversarial-attacks-pytorch/issues/3
"My server has two gpus ... if I send my model to cuda:1, then attack would change it to cuda:0
instead" ("device not same problem"). torchattacks' `Attack.__init__` set
`self.device = torch.device("cuda" if next(model.parameters()).is_cuda else "cpu")`, and every
attack's `forward` starts with `images = images.to(self.device)`: "cuda" is the current device,
cuda:0, while the weights live on cuda:1. The reporter's fix, released in v1.2:
`self.device = next(model.parameters()).device`. Stand-in: `Attack` and the v1 `PGD.forward`
(the loss gradient is stood in by a random tensor of the images' shape and device, since the
simulator runs no autograd); "cuda" is written "cuda:0", the current device it resolves to (the
simulator has no current device); a small MLP for the user's CNN.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
import torch.nn as nn

class Attack(object):
    def __init__(self, name, model):
        self.attack = name
        self.model = model.eval()
        self.model_name = str(model).split("(")[0]
        self.device = torch.device("cuda:0" if next(model.parameters()).is_cuda else "cpu")   # "cuda"

    def forward(self, *input):
        raise NotImplementedError

    def __call__(self, *input, **kwargs):
        images = self.forward(*input, **kwargs)
        return images

class PGD(Attack):
    def __init__(self, model, eps=0.3, alpha=2 / 255, iters=40):
        super(PGD, self).__init__("PGD", model)
        self.eps = eps
        self.alpha = alpha
        self.iters = iters

    def forward(self, images, labels):
        images = images.to(self.device)
        labels = labels.to(self.device)
        loss = nn.CrossEntropyLoss()
        ori_images = images.data
        for i in range(self.iters):
            outputs = self.model(images)
            cost = loss(outputs, labels).to(self.device)
            grad = torch.randn_like(images)            # cost.backward(); images.grad
            adv_images = images + self.alpha * grad.sign()
            eta = torch.clamp(adv_images - ori_images, min=-self.eps, max=self.eps)
            images = torch.clamp(ori_images + eta, min=0, max=1).detach_()
        adv_images = images
        return adv_images

device = torch.device("cuda:1")
model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 128), nn.ReLU(), nn.Linear(128, 10))
model = model.to(device)
pgd_attack = PGD(model, eps=8 / 255, alpha=2 / 255, iters=3)
images = torch.rand(16, 3, 32, 32)              # next(iter(test_loader)), still on the CPU
labels = torch.randint(0, 10, (16,))
'''
CELL = '''
adv_images = pgd_attack(images, labels)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["pgd_attack"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('self.device = torch.device("cuda:0" if next(model.parameters()).is_cuda else "cpu")',
                  "self.device = next(model.parameters()).device")
CLEAN = False
