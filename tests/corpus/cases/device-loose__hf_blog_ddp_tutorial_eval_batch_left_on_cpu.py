"""HF blog "From PyTorch DDP to Accelerate to Trainer": the evaluation step feeds CPU test batches to the model on 'cuda'.

Source: https://github.com/huggingface/blog/pull/1863
"As the model is on 'cuda', the test data and labels also should be on the same device for
evaluation. I guess this is just a copy paste issue": the blog's single-GPU MNIST example moves the
training batches with `.to(device)` but its test loop calls `model(data)` and compares with `target`
straight from the CPU test loader. Stand-ins: the blog's BasicNet, random MNIST-shaped test data
in a TensorDataset (no download), the first test batch taken out as in an interactive session
(sliced from the dataset: the simulator cannot run a DataLoader); `.item()` on the correct count is left out (no values on a fake GPU).
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset

class BasicNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, 1)
        self.conv2 = nn.Conv2d(32, 64, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.dropout2 = nn.Dropout(0.5)
        self.fc1 = nn.Linear(9216, 128)
        self.fc2 = nn.Linear(128, 10)
        self.act = F.relu

    def forward(self, x):
        x = self.act(self.conv1(x))
        x = self.act(self.conv2(x))
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = self.act(self.fc1(x))
        x = self.dropout2(x)
        x = self.fc2(x)
        output = F.log_softmax(x, dim=1)
        return output

device = "cuda:0"          # "cuda" in the original; the simulator needs an index
model = BasicNet().to(device)
test_dset = TensorDataset(torch.randn(64, 1, 28, 28), torch.randint(0, 10, (64,)))
model.eval()
data, target = test_dset[0:64]      # the first batch of DataLoader(test_dset, shuffle=False, batch_size=64)
'''
CELL = '''
with torch.no_grad():
    output = model(data)
    pred = output.argmax(dim=1, keepdim=True)
    correct = pred.eq(target.view_as(pred)).sum()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["data", "target"]
FIX = "namespace"
REFERENCE_FIX = '''
data, target = data.to(device), target.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
