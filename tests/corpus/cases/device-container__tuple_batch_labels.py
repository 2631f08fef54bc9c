"""A `(trains, labels)` batch: the inputs go to the GPU, `labels` stays where the loader made it.

Source: https://github.com/HoyTta0/KnowledgeDistillation/issues/10
The teacher's training loop indexed the DataLoader batch and moved only its inputs, so
`F.cross_entropy(outputs, labels)` raised (maintainer's fix: add `labels = labels.to(device)`).
Stand-in: the batch as the DataLoader yields it, a list of two tensors.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn

device = torch.device("cuda:0")
teacher = nn.Sequential(nn.Linear(300, 128), nn.ReLU(), nn.Linear(128, 10)).to(device)
batch = [torch.randn(16, 300), torch.randint(0, 10, (16,))]
'''
CELL = '''
outputs = teacher(batch[0].to(device))
loss = F.cross_entropy(outputs, batch[1])
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["batch[1]"]
FIX = "namespace"
REFERENCE_FIX = '''
batch[1] = batch[1].to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
