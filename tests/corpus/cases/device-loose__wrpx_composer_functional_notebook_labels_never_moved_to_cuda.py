"""Composer's Functional API notebook: `train_and_eval` moves the images to 'cuda' but not the labels `y`, so `F.cross_entropy` gets a CPU target.

Source: https://github.com/mosaicml/composer/issues/1092
Running notebooks/Composer_Functional.ipynb cell by cell on Colab, `model = Net();
train_and_eval(model, trainloader, testloader)` failed with "Expected all tensors to be on the same
device, but found at least two devices, cuda:0 and cpu! (when checking argument for argument target
in method wrapper_nll_loss_forward)". The maintainer: "It looks like we forgot some calls to set
`y = y.to(device)`". Stand-ins: CIFAR-10 loaders are lists of random batches; tqdm and the printing
and the evaluation loop are left out. Simulated with "meta" standing in for the notebook's 'cuda' device
(BatchNorm in training mode cannot run on fake cuda tensors), so backward and Adam steps run as written.
"""

SIM = "meta"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 16
trainloader = [(torch.randn(batch_size, 3, 32, 32), torch.randint(0, 10, (batch_size,))) for _ in range(2)]
testloader = [(torch.randn(batch_size, 3, 32, 32), torch.randint(0, 10, (batch_size,))) for _ in range(2)]

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, kernel_size=(3, 3), stride=2)
        self.conv2 = nn.Conv2d(16, 32, kernel_size=(3, 3))
        self.norm = nn.BatchNorm2d(32)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc1 = nn.Linear(32, 128)
        self.fc2 = nn.Linear(128, 64)
        self.fc3 = nn.Linear(64, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = self.conv2(x)
        x = F.relu(self.norm(x))
        x = torch.flatten(self.pool(x), 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x

num_epochs = 1

def train_and_eval(model, train_loader, test_loader, device='meta'):
    torch.manual_seed(42)
    model = model.to(device)
    opt = torch.optim.Adam(model.parameters())
    for epoch in range(num_epochs):
        print("---- Begginning epoch ", epoch)
        model.train()
        for X, y in train_loader:
            X = X.to(device)
            y_hat = model(X)
            loss = F.cross_entropy(y_hat, y)
            loss.backward()
            opt.step()
            opt.zero_grad()
'''
CELL = '''
model = Net()
train_and_eval(model, trainloader, testloader)
'''
EXPECT_ERROR = "is not on the expected device"
CULPRITS = ["train_and_eval"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "            X = X.to(device)\n",
    "            X = X.to(device)\n            y = y.to(device)\n",
)
CLEAN = False
