"""PyTorch/XLA on a Colab TPU: batches are sent to the XLA device but the model's `.to(device)` was commented out.

Source: https://github.com/pytorch/xla/issues/2960
The training loop `x, y = x.to(device), y.to(device); optimizer.zero_grad(); output = model(x)`
failed inside `linear` with "Input tensor is not an XLA tensor: torch.FloatTensor" (XLA's form of
the device mismatch). The reporter closed it: "I forgot that I commented out the part of the code
where I sent the model to the device". Stand-in: a small MLP classifier and one batch; cuda:0 stands
in for `xm.xla_device()`.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn

device = torch.device("cuda:0")     # xm.xla_device()

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(20, 64)
        self.fc2 = nn.Linear(64, 3)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))

model = Net()
# model = model.to(device)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
x = torch.randn(16, 20)
y = torch.randint(0, 3, (16,))
x, y = x.to(device), y.to(device)
'''
CELL = '''
output = model(x)
loss = criterion(output, y)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model = model.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
