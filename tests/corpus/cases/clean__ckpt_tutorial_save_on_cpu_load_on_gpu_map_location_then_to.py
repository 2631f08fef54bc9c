"""PyTorch recipe "Saving and loading models across devices": a state dict mapped to cuda:0 loaded into a model built on the CPU, then moved.

Source: https://github.com/pytorch/tutorials/blob/main/recipes_source/recipes/save_load_across_devices.py
"Save on CPU, Load on GPU": `device = torch.device("cuda"); model = Net();
model.load_state_dict(torch.load(PATH, map_location="cuda:0")); model.to(device)` - "Be sure to
call `input = input.to(device)` on any input tensors that you feed to the model". Look-alike: a
model that was on the CPU while a GPU state dict was copied into it, the state dict itself still in
the namespace on the GPU. Stand-in: the recipe's small CNN; the saved file replaced by the mapped
state dict.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
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

# torch.load(PATH, map_location="cuda:0") of the state dict saved on the CPU
state_dict = {k: v.to("cuda:0") for k, v in Net().state_dict().items()}

device = torch.device("cuda:0")
model = Net()
model.load_state_dict(state_dict)
model.to(device)
input = torch.randn(4, 3, 32, 32)
'''
CELL = '''
input = input.to(device)
output = model(input)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
