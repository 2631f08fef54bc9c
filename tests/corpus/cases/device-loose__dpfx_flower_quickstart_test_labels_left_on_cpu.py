"""Flower quickstart_pytorch client on a GPU: `test()` moves the images but compares the predictions with CPU labels.

Source: https://github.com/flwrlabs/flower/pull/1140
Running `examples/quickstart_pytorch/run.sh` with a CUDA GPU failed in the client's evaluation:
`correct += (torch.max(outputs.data, 1)[1] == labels).sum().item()` -> "Expected all tensors to be on
the same device, but found at least two devices, cuda:0 and cpu!". `test()` only did
`images.to(DEVICE)`; the PR moves `labels` too (`images, labels = images.to(DEVICE), labels.to(DEVICE)`).
Stand-in: the example's CIFAR Net, a list of CPU batches for the testloader, FlowerClient reduced to
`evaluate` (no Flower base class); the score is summed without `.item()`.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

DEVICE = torch.device("cuda:0")

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

def test(net, testloader):
    """Validate the network on the entire test set."""
    criterion = torch.nn.CrossEntropyLoss()
    correct, total, loss = 0, 0, 0.0
    with torch.no_grad():
        for data in testloader:
            images, labels = data[0].to(DEVICE), data[1]
            outputs = net(images)
            loss += criterion(outputs, labels.to(DEVICE))
            total += labels.size(0)
            correct += (torch.max(outputs.data, 1)[1] == labels).sum()
    return loss, correct, total

class CifarClient:
    def __init__(self, net, testloader):
        self.net, self.testloader = net, testloader

    def evaluate(self, parameters, config):
        loss, correct, total = test(self.net, self.testloader)
        return loss, total, {"correct": correct}

net = Net().to(DEVICE)
testloader = [(torch.randn(4, 3, 32, 32), torch.randint(0, 10, (4,))) for _ in range(2)]
client = CifarClient(net, testloader)
'''
CELL = '''
loss, num_examples, metrics = client.evaluate(None, {})
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["test"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("images, labels = data[0].to(DEVICE), data[1]",
                  "images, labels = data[0].to(DEVICE), data[1].to(DEVICE)")
CLEAN = False
