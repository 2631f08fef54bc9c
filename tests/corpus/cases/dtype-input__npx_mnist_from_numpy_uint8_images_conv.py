"""MNIST-style CNN fed a batch made with torch.from_numpy on the raw uint8 pixel array.

Source: https://github.com/pytorch/pytorch/issues/2458
Following the MNIST example, the user loaded the digits from a numpy array with
`torch.from_numpy` and got "Input type (Byte) and weight type (Float) should be the same": the
pixel array is uint8, so the tensor is a ByteTensor and the first Conv2d has float32 weights.
The maintainer's answer: call `.float()` on the input.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 10, kernel_size=5)
        self.conv2 = nn.Conv2d(10, 20, kernel_size=5)
        self.fc1 = nn.Linear(320, 50)
        self.fc2 = nn.Linear(50, 10)

    def forward(self, x):
        x = F.relu(F.max_pool2d(self.conv1(x), 2))
        x = F.relu(F.max_pool2d(self.conv2(x), 2))
        x = x.view(-1, 320)
        x = F.relu(self.fc1(x))
        return F.log_softmax(self.fc2(x), dim=1)

model = Net()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.5)

train_images = np.random.randint(0, 256, size=(8, 1, 28, 28)).astype(np.uint8)   # raw digits
train_labels = np.random.randint(0, 10, size=(8,)).astype(np.int64)
data = torch.from_numpy(train_images)
target = torch.from_numpy(train_labels)
'''
CELL = '''
optimizer.zero_grad()
output = model(data)
loss = F.nll_loss(output, target)
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = ("Input type", "should be the same")
CULPRITS = ["data"]
FIX = "namespace"
REFERENCE_FIX = '''
data = data.float()
'''
REFERENCE_EDIT = None
CLEAN = False
