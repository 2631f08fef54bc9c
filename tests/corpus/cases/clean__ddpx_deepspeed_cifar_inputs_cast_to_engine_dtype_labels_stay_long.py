"""Look-alike: DeepSpeed's CIFAR-10 example runs the engine in bf16 and casts only the images to `target_dtype`; the labels stay int64 for the cross-entropy.

Source: https://github.com/deepspeedai/DeepSpeedExamples/blob/master/training/cifar/cifar10_deepspeed.py
`target_dtype = torch.bfloat16 if model_engine.bfloat16_enabled() else (torch.half if fp16 ...)`; in the
loop `inputs, labels = data[0].to(local_device), data[1].to(local_device)`, then
`if target_dtype != None: inputs = inputs.to(target_dtype)`, `outputs = model_engine(inputs)`,
`loss = criterion(outputs, labels)`. The model is bf16, the images are cast, the labels are (rightly)
left as class indices.
Stand-ins: the example's Net; `model_engine` is the bf16 module (DeepSpeed's bf16 engine converts it).
CPU only (dtype look-alike).
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
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)

ds_config = {"train_batch_size": 4, "bf16": {"enabled": True}, "zero_optimization": {"stage": 0}}
net = Net()
model_engine = net.to(torch.bfloat16)     # deepspeed.initialize(...) with bf16 enabled
local_device = torch.device("cpu")        # get_accelerator().device_name(model_engine.local_rank)
target_dtype = None
if ds_config["bf16"]["enabled"]:
    target_dtype = torch.bfloat16
criterion = nn.CrossEntropyLoss()
data = (torch.randn(4, 3, 32, 32), torch.randint(0, 10, (4,)))
'''
CELL = '''
inputs, labels = data[0].to(local_device), data[1].to(local_device)
if target_dtype != None:
    inputs = inputs.to(target_dtype)
with torch.no_grad():
    outputs = model_engine(inputs)
    loss = criterion(outputs, labels)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
