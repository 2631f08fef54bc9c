"""PyTorch's Ray Tune tutorial: `train_cifar` wraps the net in DataParallel on "cuda:0" and moves every CPU batch.

Source: https://github.com/pytorch/tutorials/blob/main/beginner_source/hyperparameter_tuning_tutorial.py
`train_cifar(config)` builds `Net(config["l1"], config["l2"])`, picks `device = "cuda:0"`, wraps it
in `nn.DataParallel` when several GPUs are visible, `net.to(device)`, and in the validation loop
does `inputs, labels = inputs.to(device), labels.to(device)` before `net(inputs)` and
`criterion(outputs, labels)`; accuracy is counted from `torch.max(outputs.data, 1)`.
Look-alike: CPU loader batches beside a GPU (DataParallel-wrapped) model, moved before use.
Stand-ins: random CIFAR-shaped batches; validation step only (no backward on the simulated GPU);
a single visible GPU, as DataParallel then just forwards to the module.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class Net(nn.Module):
    def __init__(self, l1=120, l2=84):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, l1)
        self.fc2 = nn.Linear(l1, l2)
        self.fc3 = nn.Linear(l2, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)

config = {"l1": 64, "l2": 32, "lr": 1e-3, "batch_size": 8}
net = Net(config["l1"], config["l2"])
device = "cuda:0"
net.to(device)
criterion = nn.CrossEntropyLoss()
valloader = [(torch.randn(config["batch_size"], 3, 32, 32), torch.randint(0, 10, (config["batch_size"],))) for _ in range(2)]
'''
CELL = '''
val_loss = 0.0
total = 0
correct = 0
with torch.no_grad():
    for i, data in enumerate(valloader, 0):
        inputs, labels = data
        inputs, labels = inputs.to(device), labels.to(device)
        outputs = net(inputs)
        _, predicted = torch.max(outputs.data, 1)
        total += labels.size(0)
        correct += (predicted == labels).sum()
        loss = criterion(outputs, labels)
        val_loss += loss
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
