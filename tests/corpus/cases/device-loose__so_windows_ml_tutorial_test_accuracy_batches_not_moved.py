"""Windows ML "train your image classifier" tutorial on CUDA: testAccuracy() feeds CPU batches to the GPU model.

Source: https://github.com/MicrosoftDocs/windows-ai-docs/issues/94
"testAccuracy function passes torch.FloatTensor to Forward function": with the tutorial's code
copied as is and `device = "cuda"`, training ran (the `train` loop moves `images`/`labels` to the
device) but the accuracy test after the first epoch raised "Input type (torch.FloatTensor) and
weight type (torch.cuda.FloatTensor) should be the same": `testAccuracy` iterates `test_loader` and
calls `model(images)` without moving the batch (its `predicted == labels` would then mix devices
too). Stand-in: the tutorial's Network (two conv blocks, no batch norm), random CIFAR-sized batches in a list for the loader; `.item()` in the accuracy sums
is dropped because the simulation cannot read values.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class Network(nn.Module):
    def __init__(self):
        super(Network, self).__init__()
        self.conv1 = nn.Conv2d(in_channels=3, out_channels=12, kernel_size=5, stride=1, padding=1)
        self.conv2 = nn.Conv2d(in_channels=12, out_channels=12, kernel_size=5, stride=1, padding=1)
        self.pool = nn.MaxPool2d(2, 2)
        self.fc1 = nn.Linear(12 * 14 * 14, 10)

    def forward(self, input):
        output = F.relu(self.conv1(input))
        output = F.relu(self.conv2(output))
        output = self.pool(output)
        output = output.view(-1, 12 * 14 * 14)
        return self.fc1(output)

# the tutorial's CIFAR10 DataLoader, as a list of CPU batches (a DataLoader draws a seed the
# simulation cannot read)
test_loader = [(torch.rand(10, 3, 32, 32), torch.randint(0, 10, (10,))) for _ in range(4)]

device = torch.device("cuda:0")
model = Network()
model.to(device)

def testAccuracy():
    model.eval()
    accuracy = 0.0
    total = 0.0
    with torch.no_grad():
        for data in test_loader:
            images, labels = data
            # run the model on the test set to predict labels
            outputs = model(images)
            # the label with the highest energy will be our prediction
            _, predicted = torch.max(outputs.data, 1)
            total += labels.size(0)
            accuracy += (predicted == labels).sum()
    accuracy = (100 * accuracy / total)
    return(accuracy)
'''
CELL = '''
accuracy = testAccuracy()
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "should be the same")
CULPRITS = ["test_loader"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "            images, labels = data\n",
    "            images, labels = data\n            images, labels = images.to(device), labels.to(device)\n",
)
CLEAN = False
