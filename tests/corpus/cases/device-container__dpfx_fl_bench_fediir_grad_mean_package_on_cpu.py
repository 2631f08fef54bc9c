"""FL-bench FedIIR client: the server's `grad_mean` arrives in the package on the CPU and is subtracted from GPU gradients.

Source: https://github.com/KarhouTam/FL-bench/issues/172
Running `fediir` on MNIST stopped with tensors on different devices. Clients return
`grad_sum=tuple(grad.detach().cpu().clone() ...)`, the server averages them on the CPU and ships
`grad_mean` in the client package; `FedIIRClient.set_parameters` stored `package["grad_mean"]` as is,
and `fit` computes `(g_client - g_mean)` with `g_client` from `autograd.grad` on `self.device`.
The current client moves it: `tuple(grad.to(self.device) for grad in self.grad_mean)`.
Stand-in: FedAvgClient reduced to model (base + classifier), optimizer, trainloader; the package's
CPU `grad_mean` is made directly with CPU tensors; "meta" plays the GPU.
"""

SIM = "meta"
FAMILY = "device-container"
SETUP = '''
from types import SimpleNamespace
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.autograd as autograd

class AvgCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.base = nn.Sequential(nn.Conv2d(1, 8, 5), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 16))
        self.classifier = nn.Linear(16, 10)

class FedIIRClient:
    def __init__(self, model, args, device, trainloader):
        self.device, self.args = device, args
        self.model = model.to(device)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.01)
        self.trainloader = trainloader
        self.local_epoch = args.local_epoch
        self.lr_scheduler = None
        self.grad_mean = None

    def set_parameters(self, package):
        self.model.load_state_dict(package["regular_model_params"], strict=False)
        self.grad_mean = package["grad_mean"]

    def fit(self):
        self.model.train()
        for i in range(self.local_epoch):
            for x, y in self.trainloader:
                if len(x) <= 1:
                    continue
                x, y = x.to(self.device), y.to(self.device)
                features = self.model.base(x)
                logit = self.model.classifier(F.relu(features))
                loss_erm = F.cross_entropy(logit, y)
                grad_client = autograd.grad(loss_erm, self.model.classifier.parameters(), create_graph=True)
                penalty_value = 0
                for g_client, g_mean in zip(grad_client, self.grad_mean):
                    penalty_value += (g_client - g_mean).pow(2).sum()
                loss = loss_erm + self.args.fediir.penalty * penalty_value
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()

device = torch.device("meta")   # cuda
args = SimpleNamespace(local_epoch=1, fediir=SimpleNamespace(penalty=1e-3))
client = FedIIRClient(AvgCNN(), args, device, [(torch.randn(8, 1, 28, 28), torch.randint(0, 10, (8,))) for _ in range(2)])
server_package = {
    "regular_model_params": {},
    "grad_mean": tuple(torch.zeros_like(p, device="cpu") for p in AvgCNN().classifier.parameters()),
}
'''
CELL = '''
client.set_parameters(server_package)
client.fit()
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["client"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('self.grad_mean = package["grad_mean"]',
                  'self.grad_mean = tuple(grad.to(self.device) for grad in package["grad_mean"])')
CLEAN = False
