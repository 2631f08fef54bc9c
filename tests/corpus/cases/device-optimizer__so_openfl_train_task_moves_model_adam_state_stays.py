"""OpenFL interactive-API train task: the model is moved to the task's device, the optimizer's state is not.

Source: https://github.com/securefederatedai/openfederatedlearning/pull/351
"Optimizer parameters need to be copied if different tasks have model on different devices": in the
interactive API examples the `train` task does `net_model.to(device)` itself, but the optimizer
handed to it already holds Adam state (`exp_avg`, `exp_avg_sq`) created where the model lived
before; the next `optimizer.step()` mixes device parameters/gradients with CPU state. The PR adds
`optimizer_to(optimizer, device)` after the model move. Stand-in: the MNIST-style task functions,
a first round run on the CPU, the next on the GPU; gradients are set directly in place of `loss.backward()`.
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.fc1 = nn.Linear(784, 64)
        self.fc2 = nn.Linear(64, 10)
    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x.view(-1, 784))))

def cross_entropy(output, target):
    return F.cross_entropy(input=output, target=target)

def train(net_model, train_loader, optimizer, device, loss_fn=cross_entropy):
    net_model.train()
    net_model.to(device)
    losses = []
    for data, target in train_loader:
        data, target = data.to(device), target.to(device)
        optimizer.zero_grad()
        output = net_model(data)
        loss = loss_fn(output=output, target=target)
        for p in net_model.parameters():      # stand-in for loss.backward()
            p.grad = torch.ones_like(p)
        optimizer.step()
        losses.append(loss.detach())
    return {'train_loss': losses}

train_loader = [(torch.rand(8, 1, 28, 28), torch.randint(0, 10, (8,))) for _ in range(3)]
net_model = Net()
optimizer = torch.optim.Adam(net_model.parameters(), lr=1e-4)
train(net_model, train_loader, optimizer, torch.device("cpu"))      # previous round, on the CPU
device = torch.device("cuda:0")          # the train task's device
'''
CELL = '''
metrics = train(net_model, train_loader, optimizer, device)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["optimizer"]
FIX = "namespace"
REFERENCE_FIX = '''
for state in optimizer.state.values():
    for k, v in state.items():
        if torch.is_tensor(v) and k != "step":
            state[k] = v.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
