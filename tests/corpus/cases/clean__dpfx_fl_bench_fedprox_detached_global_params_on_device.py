"""Look-alike: FL-bench FedProx keeps detached clones of the global parameters beside the model and adds the proximal gradient.

Source: https://github.com/KarhouTam/FL-bench/issues/165
The issue's fix for `FedProxClient.fit`: snapshot the global model as
`global_params = [w.clone().detach() for w in self.model.parameters()]` (instead of aliasing the live
parameters), then after `loss.backward()` add `mu * (w.data - w_t.data)` to every `w.grad.data`.
The clones are taken after the server parameters were loaded into the model on `self.device`; the
CPU batches are moved in the loop. Stand-in: FedProxClient reduced to model, optimizer, criterion,
trainloader and `args.fedprox.mu`; "meta" plays the GPU.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn

class FedProxClient:
    def __init__(self, model, args, device, trainloader):
        self.args, self.device = args, device
        self.model = model.to(device)
        self.criterion = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.01)
        self.trainloader = trainloader
        self.local_epoch = args.local_epoch
        self.lr_scheduler = None

    def fit(self):
        self.model.train()
        global_params = [w.clone().detach() for w in self.model.parameters()]
        for _ in range(self.local_epoch):
            for x, y in self.trainloader:
                if len(x) <= 1:
                    continue

                x, y = x.to(self.device), y.to(self.device)
                logit = self.model(x)
                loss = self.criterion(logit, y)
                self.optimizer.zero_grad()
                loss.backward()
                for w, w_t in zip(self.model.parameters(), global_params):
                    if w.requires_grad:
                        w.grad.data += self.args.fedprox.mu * (w.data - w_t.data)
                self.optimizer.step()

            if self.lr_scheduler is not None:
                self.lr_scheduler.step()

args = SimpleNamespace(local_epoch=2, fedprox=SimpleNamespace(mu=0.01))
device = torch.device("meta")   # cuda
avgcnn = nn.Sequential(nn.Conv2d(1, 8, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10))
client = FedProxClient(avgcnn, args, device, [(torch.randn(16, 1, 28, 28), torch.randint(0, 10, (16,))) for _ in range(2)])
'''
CELL = '''
client.fit()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
