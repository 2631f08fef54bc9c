"""Look-alike: Flower's Opacus example trains a DP model on the device from dict batches that stay on the CPU until used.

Source: https://github.com/adap/flower/blob/main/examples/opacus/opacus_fl/task.py
`train(net, train_loader, privacy_engine, optimizer, target_delta, device)` calls `net.to(device)`
and feeds `criterion(net(images.to(device)), labels.to(device))`, where `images = batch["img"]` and
`labels = batch["label"]` come from a CPU DataLoader; the privacy budget is read back as a Python
float with `privacy_engine.get_epsilon(delta=target_delta)`. `set_weights` loads CPU
`torch.tensor(v)` state dicts with `load_state_dict`. Stand-in: the example's Net; PrivacyEngine
reduced to an accountant history (no per-sample clipping), a plain SGD optimizer, a list of dict
batches; "meta" plays the GPU and the net is placed on it before the optimizer is built.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import math
from collections import OrderedDict
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(-1, 16 * 5 * 5)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)

def set_weights(net, parameters):
    params_dict = zip(net.state_dict().keys(), parameters)
    state_dict = OrderedDict({k: torch.tensor(v) for k, v in params_dict})
    net.load_state_dict(state_dict, strict=True)

class PrivacyEngine:
    def __init__(self, noise_multiplier, sample_rate):
        self.history = []
        self.noise_multiplier, self.sample_rate = noise_multiplier, sample_rate

    def step(self):
        self.history.append((self.noise_multiplier, self.sample_rate))

    def get_epsilon(self, delta):
        steps = len(self.history)
        return float(self.sample_rate * math.sqrt(steps * math.log(1 / delta)) / self.noise_multiplier)

def train(net, train_loader, privacy_engine, optimizer, target_delta, device, epochs=1):
    criterion = torch.nn.CrossEntropyLoss()
    net.to(device)
    net.train()
    for _ in range(epochs):
        for batch in train_loader:
            images = batch["img"]
            labels = batch["label"]
            optimizer.zero_grad()
            criterion(net(images.to(device)), labels.to(device)).backward()
            optimizer.step()
            privacy_engine.step()
    epsilon = privacy_engine.get_epsilon(delta=target_delta)
    return epsilon

DEVICE = torch.device("meta")   # torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
net = Net().to(DEVICE)
server_parameters = [np.random.randn(*v.shape).astype(np.float32) for v in Net().state_dict().values()]
optimizer = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
privacy_engine = PrivacyEngine(noise_multiplier=1.0, sample_rate=32 / 50000)
train_loader = [{"img": torch.randn(8, 3, 32, 32), "label": torch.randint(0, 10, (8,))} for _ in range(3)]
target_delta = 1e-5
'''
CELL = '''
set_weights(net, server_parameters)
epsilon = train(net, train_loader, privacy_engine, optimizer, target_delta, DEVICE)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
