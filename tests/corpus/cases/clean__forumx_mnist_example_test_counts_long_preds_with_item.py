"""Look-alike: pytorch/examples MNIST `test()` sums a float loss and a LongTensor comparison into Python numbers.

Source: https://github.com/pytorch/examples/blob/main/mnist/main.py
`test()` accumulates `test_loss += F.nll_loss(output, target, reduction='sum').item()` and
`correct += pred.eq(target.view_as(pred)).sum().item()` where `pred = output.argmax(dim=1,
keepdim=True)` is int64 and `target` int64, then prints `100. * correct / len(...)`: a mix of
float losses, integer index tensors and Python ints that never meets in one tensor op, so it runs.
Stand-in: the example's `Net` and a two-batch loader of random images; CPU (dtype look-alike).
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, 1)
        self.conv2 = nn.Conv2d(32, 64, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.dropout2 = nn.Dropout(0.5)
        self.fc1 = nn.Linear(9216, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        x = self.conv1(x)
        x = F.relu(x)
        x = self.conv2(x)
        x = F.relu(x)
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.dropout2(x)
        x = self.fc2(x)
        output = F.log_softmax(x, dim=1)
        return output

class _Loader(list):
    dataset = range(16)

device = torch.device("cpu")
model = Net().to(device)
test_loader = _Loader([(torch.rand(8, 1, 28, 28), torch.randint(0, 10, (8,))) for _ in range(2)])
'''
CELL = '''
model.eval()
test_loss = 0
correct = 0
with torch.no_grad():
    for data, target in test_loader:
        data, target = data.to(device), target.to(device)
        output = model(data)
        test_loss += F.nll_loss(output, target, reduction='sum').item()
        pred = output.argmax(dim=1, keepdim=True)
        correct += pred.eq(target.view_as(pred)).sum().item()
test_loss /= len(test_loader.dataset)
print('Test set: Average loss: {:.4f}, Accuracy: {}/{} ({:.0f}%)'.format(
    test_loss, correct, len(test_loader.dataset), 100. * correct / len(test_loader.dataset)))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
