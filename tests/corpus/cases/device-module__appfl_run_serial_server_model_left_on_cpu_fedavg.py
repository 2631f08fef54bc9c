"""APPFL's serial federated run builds the FedAvg server with `device="cuda"` but never moves the server's model copy to the GPU.

Source: https://github.com/APPFL/APPFL/issues/40
Running the MNIST example with `run_serial` on a single GPU failed in the server update:
    File ".../appfl/algorithm/fedavg.py", line 27, in update
        prim_res = super(FedAvgServer, self).primal_residual_at_server(global_state)
    File ".../appfl/algorithm/algorithm.py", line 78, in primal_residual_at_server
        global_state[name] - self.primal_states[i][name].to(self.device)
    RuntimeError: Expected all tensors to be on the ... same device
The maintainer: the parallel (MPI) path keeps the server on the CPU, but in the serial run the
server can run on GPU, "by which the server potentially uses memory on both CPU and GPU".
`global_state` is a deep copy of `server.model.state_dict()`; `server.model` is a CPU copy of
the user's model, while the clients train their copies on `cfg.device` and send GPU states.
The fix (APPFL PR #41) added `server.model.to(cfg.device)` in `run_serial`.
Stand-in: APPFL's BaseServer/FedAvgServer/FedAvgClient and `run_serial` of early 2022 with a small
MNIST CNN on random data; the config is a plain namespace, the residual is kept as a tensor (no
`.item()`), and the result file/validation are left out. SIM "meta": "meta" plays the GPU since
the clients train with backward; the clients move their model copies to the device when built
(APPFL moves them at the start of each update; a meta state cannot be loaded into a CPU module).
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
import copy
from collections import OrderedDict
from types import SimpleNamespace
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim import *
from torch.nn import CrossEntropyLoss
from torch.utils.data import DataLoader, TensorDataset

class BaseServer:
    def __init__(self, weights, model, num_clients, device):
        self.model = model
        self.num_clients = num_clients
        self.device = device
        self.weights = weights
        self.penalty = OrderedDict()
        self.primal_states = OrderedDict()
        self.dual_states = OrderedDict()
        for i in range(num_clients):
            self.primal_states[i] = OrderedDict()
            self.dual_states[i] = OrderedDict()

    def primal_recover_from_local_states(self, local_states):
        for _, states in enumerate(local_states):
            if states is not None:
                for sid, state in states.items():
                    self.primal_states[sid] = copy.deepcopy(state["primal"])

    def primal_residual_at_server(self, global_state):
        primal_res = 0
        for i in range(self.num_clients):
            for name, param in self.model.named_parameters():
                primal_res += torch.sum(torch.square(global_state[name] - self.primal_states[i][name].to(self.device)))
        primal_res = torch.sqrt(primal_res)
        return primal_res

class BaseClient:
    def __init__(self, id, weight, model, dataloader, device):
        self.id = id
        self.weight = weight
        self.model = model.to(device)
        self.dataloader = dataloader
        self.device = device
        self.primal_state = OrderedDict()

class FedAvgServer(BaseServer):
    def __init__(self, weights, model, num_clients, device, **kwargs):
        super(FedAvgServer, self).__init__(weights, model, num_clients, device)
        self.__dict__.update(kwargs)

    def update(self, local_states):
        global_state = copy.deepcopy(self.model.state_dict())
        super(FedAvgServer, self).primal_recover_from_local_states(local_states)
        prim_res = super(FedAvgServer, self).primal_residual_at_server(global_state)
        for name, _ in self.model.named_parameters():
            tmp = 0.0
            for i in range(self.num_clients):
                self.primal_states[i][name] = self.primal_states[i][name].to(self.device)
                tmp += self.weights[i] * self.primal_states[i][name]
            global_state[name] = tmp
        self.model.load_state_dict(global_state)
        return prim_res, 0, 0, 0

class FedAvgClient(BaseClient):
    def __init__(self, id, weight, model, dataloader, device, **kwargs):
        super(FedAvgClient, self).__init__(id, weight, model, dataloader, device)
        self.__dict__.update(kwargs)
        self.loss_fn = eval(self.loss_type)

    def update(self):
        self.model.train()
        self.model.to(self.device)
        optimizer = eval(self.optim)(self.model.parameters(), **self.optim_args)
        for i in range(self.num_local_epochs):
            for data, target in self.dataloader:
                data = data.to(self.device)
                target = target.to(self.device)
                optimizer.zero_grad()
                output = self.model(data)
                loss = self.loss_fn(output, target)
                loss.backward()
                optimizer.step()
        self.primal_state = copy.deepcopy(self.model.state_dict())
        self.local_state = OrderedDict()
        self.local_state["primal"] = copy.deepcopy(self.primal_state)
        self.local_state["dual"] = OrderedDict()
        self.local_state["penalty"] = OrderedDict()
        self.local_state["penalty"][self.id] = 0.0
        return self.local_state

def run_serial(cfg, model, train_data, test_data, DataSet_name):
    num_clients = len(train_data)
    num_epochs = cfg.num_epochs
    total_num_data = 0
    for k in range(num_clients):
        total_num_data += len(train_data[k])
    weights = {}
    for k in range(num_clients):
        weights[k] = len(train_data[k]) / total_num_data

    server = eval(cfg.fed.servername)(
        weights, copy.deepcopy(model), num_clients, cfg.device, **cfg.fed.args
    )

    clients = [
        eval(cfg.fed.clientname)(
            k, weights[k], copy.deepcopy(model),
            DataLoader(train_data[k], num_workers=0, batch_size=cfg.train_data_batch_size, shuffle=True),
            cfg.device, **cfg.fed.args,
        )
        for k in range(num_clients)
    ]

    local_states = []
    local_state = OrderedDict()
    local_state[0] = OrderedDict()
    history = []
    for t in range(num_epochs):
        global_state = server.model.state_dict()
        for k, client in enumerate(clients):
            client.model.load_state_dict(global_state)
            local_state[0][k] = client.update()
        local_states.append(local_state[0])
        prim_res, dual_res, rho_min, rho_max = server.update(local_states)
        history.append(prim_res)
    return history

class CNN(nn.Module):
    def __init__(self, num_channel=1, num_classes=10, num_pixel=28):
        super().__init__()
        self.conv1 = nn.Conv2d(num_channel, 8, kernel_size=5, padding=0, stride=1, bias=True)
        self.maxpool = nn.MaxPool2d(kernel_size=(2, 2))
        self.fc1 = nn.Linear(8 * 12 * 12, 32)
        self.fc2 = nn.Linear(32, num_classes)

    def forward(self, x):
        x = self.maxpool(F.relu(self.conv1(x)))
        x = torch.flatten(x, 1)
        return self.fc2(F.relu(self.fc1(x)))

torch.manual_seed(0)
train_datasets = [TensorDataset(torch.randn(32, 1, 28, 28), torch.randint(0, 10, (32,))) for _ in range(2)]
test_dataset = TensorDataset(torch.randn(16, 1, 28, 28), torch.randint(0, 10, (16,)))
cfg = SimpleNamespace(
    device="meta", num_epochs=2, train_data_batch_size=16,
    fed=SimpleNamespace(servername="FedAvgServer", clientname="FedAvgClient",
                        args=dict(optim="SGD", optim_args={"lr": 0.01}, num_local_epochs=1,
                                  loss_type="CrossEntropyLoss()")),
)
model = CNN()
'''
CELL = '''
history = run_serial(cfg, model, train_datasets, test_dataset, "MNIST")
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    '''        weights, copy.deepcopy(model), num_clients, cfg.device, **cfg.fed.args
    )
''',
    '''        weights, copy.deepcopy(model), num_clients, cfg.device, **cfg.fed.args
    )

    server.model.to(cfg.device)
''',
)
CLEAN = False
