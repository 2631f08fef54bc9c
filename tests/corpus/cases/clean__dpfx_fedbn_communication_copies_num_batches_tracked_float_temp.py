"""Look-alike: FedBN's `communication` averages float tensors into a float32 `temp` and copies int64 counters as they are.

Source: https://github.com/med-air/FedBN/blob/master/federated/fed_office.py
For FedAvg/FedProx mode the server walks `server_model.state_dict()`: `num_batches_tracked` (a
LongTensor) is copied from client 0, every other entry is accumulated as
`temp += client_weights[client_idx] * models[client_idx].state_dict()[key]` with Python float
weights and copied into the server and back into every client with `.data.copy_`. For FedBN mode the
`bn` keys are skipped and `temp` is made with `dtype=torch.float32`. Mixed dtypes on purpose, all
on the training device, under `torch.no_grad()`. Stand-in: AlexNet reduced to conv/BN/fc, four
clients; "meta" plays the GPU.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import copy
import torch
import torch.nn as nn

device = torch.device("meta")   # 'cuda'

class AlexNet(nn.Module):
    def __init__(self, num_classes=10):
        super(AlexNet, self).__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(16)
        self.fc1 = nn.Linear(16, 32)
        self.bn6 = nn.BatchNorm1d(32)
        self.fc3 = nn.Linear(32, num_classes)

    def forward(self, x):
        x = torch.relu(self.bn1(self.conv1(x))).mean((2, 3))
        return self.fc3(torch.relu(self.bn6(self.fc1(x))))

def communication(args, server_model, models, client_weights):
    with torch.no_grad():
        # aggregate params
        if args.mode.lower() == 'fedbn':
            for key in server_model.state_dict().keys():
                if 'bn' not in key:
                    temp = torch.zeros_like(server_model.state_dict()[key], dtype=torch.float32)
                    for client_idx in range(client_num):
                        temp += client_weights[client_idx] * models[client_idx].state_dict()[key]
                    server_model.state_dict()[key].data.copy_(temp)
                    for client_idx in range(client_num):
                        models[client_idx].state_dict()[key].data.copy_(server_model.state_dict()[key])
        else:
            for key in server_model.state_dict().keys():
                # num_batches_tracked is a non trainable LongTensor and
                # num_batches_tracked are the same for all clients for the given datasets
                if 'num_batches_tracked' in key:
                    server_model.state_dict()[key].data.copy_(models[0].state_dict()[key])
                else:
                    temp = torch.zeros_like(server_model.state_dict()[key])
                    for client_idx in range(len(client_weights)):
                        temp += client_weights[client_idx] * models[client_idx].state_dict()[key]
                    server_model.state_dict()[key].data.copy_(temp)
                    for client_idx in range(len(client_weights)):
                        models[client_idx].state_dict()[key].data.copy_(server_model.state_dict()[key])
    return server_model, models

class Args:
    mode = 'fedavg'

args = Args()
server_model = AlexNet().to(device)
client_num = 4
client_weights = [1/client_num for i in range(client_num)]
models = [copy.deepcopy(server_model).to(device) for idx in range(client_num)]
for model in models:
    model.train()
    with torch.no_grad():
        model(torch.randn(4, 3, 8, 8, device=device))
'''
CELL = '''
with torch.no_grad():
    # aggregation
    server_model, models = communication(args, server_model, models, client_weights)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
