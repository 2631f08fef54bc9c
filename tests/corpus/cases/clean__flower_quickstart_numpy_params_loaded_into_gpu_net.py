"""Look-alike: Flower's quickstart client loads the server's NumPy weights as CPU tensors into a net on the GPU.

Source: https://github.com/adap/flower/blob/main/examples/quickstart-pytorch/client.py
`set_parameters` turns each received NumPy array into `torch.tensor(v)` (CPU) and calls
`net.load_state_dict(state_dict, strict=True)` on the net that lives on DEVICE; `load_state_dict`
copies into the existing GPU parameters, so the CPU state dict is harmless. The DataLoader's batches
stay on the CPU until `train` moves `images` and `labels` to DEVICE. Stand-in: the example's Net,
FlowerClient (without the Flower base class), a list-of-dicts trainloader; "meta" plays the GPU.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
from collections import OrderedDict
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

DEVICE = torch.device("meta")          # the GPU

class Net(nn.Module):
    def __init__(self) -> None:
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(-1, 16 * 5 * 5)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)

def train(net, trainloader, epochs):
    criterion = torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
    for _ in range(epochs):
        for batch in trainloader:
            images = batch["img"]
            labels = batch["label"]
            optimizer.zero_grad()
            criterion(net(images.to(DEVICE)), labels.to(DEVICE)).backward()
            optimizer.step()

net = Net().to(DEVICE)
trainloader = [{"img": torch.randn(32, 3, 32, 32), "label": torch.randint(0, 10, (32,))} for _ in range(2)]

class FlowerClient:
    def set_parameters(self, parameters):
        params_dict = zip(net.state_dict().keys(), parameters)
        state_dict = OrderedDict({k: torch.tensor(v) for k, v in params_dict})
        net.load_state_dict(state_dict, strict=True)

    def fit(self, parameters, config):
        self.set_parameters(parameters)
        train(net, trainloader, epochs=1)
        return len(trainloader), {}

# what the server sends: one float32 NumPy array per state-dict entry
parameters = [np.random.randn(*v.shape).astype(np.float32) * 0.05 for v in net.state_dict().values()]
client = FlowerClient()
'''
CELL = '''
num_examples, metrics = client.fit(parameters, config={})
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
