"""Look-alike: FL-bench SCAFFOLD client corrects every gradient with control variates built by `zeros_like(c_global)`.

Source: https://github.com/KarhouTam/FL-bench/blob/master/src/client/scaffold.py
`SCAFFOLDClient.train` receives the server's `c_global` list, creates this client's
`c_local[client_id] = [torch.zeros_like(c) for c in c_global]` (so on c_global's device), and `fit`
adds `c - c_i` to every `param.grad.data` after `loss.backward()`; `get_data_batch` moves each CPU
batch to `self.device`. After training, `y_delta`, `c_plus` and `c_delta` are computed under
`no_grad` from tensors on the same device. Stand-in: FedAvgClient reduced to model, optimizer,
criterion and a list-of-batches trainloader; `new_parameters` is the server's state dict on the
device; "meta" plays the GPU.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
from collections import OrderedDict
import torch
from torch import nn

def trainable_params(model):
    return [p for p in model.parameters() if p.requires_grad]

class SCAFFOLDClient:
    def __init__(self, model, local_lr, device, trainloader):
        self.device = device
        self.model = model.to(device)
        self.local_lr = local_lr
        self.criterion = nn.CrossEntropyLoss().to(device)
        self.optimizer = torch.optim.SGD(trainable_params(self.model), lr=local_lr)
        self.trainloader = trainloader
        self.c_local = {}
        self.c_global = []
        self.iter_trainloader = None

    def set_parameters(self, new_parameters):
        self.model.load_state_dict(new_parameters, strict=False)

    def train(self, client_id, local_epoch, new_parameters, c_global):
        self.client_id = client_id
        self.local_epoch = local_epoch
        self.iter_trainloader = iter(self.trainloader)
        self.set_parameters(new_parameters)
        self.c_global = c_global
        if self.client_id not in self.c_local.keys():
            self.c_local[self.client_id] = [torch.zeros_like(c) for c in c_global]
        self.fit()
        with torch.no_grad():
            y_delta, c_plus, c_delta = [], [], []
            for x, y_i in zip(new_parameters.values(), trainable_params(self.model)):
                y_delta.append(y_i - x)
            coef = 1 / (self.local_epoch * self.local_lr)
            for c, c_i, y_del in zip(self.c_global, self.c_local[self.client_id], y_delta):
                c_plus.append(c_i - c - coef * y_del)
            for c_p, c_l in zip(c_plus, self.c_local[self.client_id]):
                c_delta.append(c_p - c_l)
            self.c_local[self.client_id] = c_plus
        return y_delta, c_delta

    def fit(self):
        self.model.train()
        for _ in range(self.local_epoch):
            x, y = self.get_data_batch()
            logits = self.model(x)
            loss = self.criterion(logits, y)
            self.optimizer.zero_grad()
            loss.backward()
            for param, c, c_i in zip(trainable_params(self.model), self.c_global, self.c_local[self.client_id]):
                param.grad.data += c - c_i
            self.optimizer.step()

    def get_data_batch(self):
        try:
            x, y = next(self.iter_trainloader)
            if len(x) <= 1:
                x, y = next(self.iter_trainloader)
        except StopIteration:
            self.iter_trainloader = iter(self.trainloader)
            x, y = next(self.iter_trainloader)
        return x.to(self.device), y.to(self.device)

device = torch.device("meta")   # the GPU
trainloader = [(torch.randn(8, 20), torch.randint(0, 5, (8,))) for _ in range(3)]
client = SCAFFOLDClient(nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 5)), 0.01, device, trainloader)
global_model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 5)).to(device)
new_parameters = OrderedDict((k, v.detach().clone()) for k, v in global_model.state_dict().items())
c_global = [torch.zeros_like(p) for p in trainable_params(global_model)]
'''
CELL = '''
y_delta, c_delta = client.train(client_id=0, local_epoch=2, new_parameters=new_parameters, c_global=c_global)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
