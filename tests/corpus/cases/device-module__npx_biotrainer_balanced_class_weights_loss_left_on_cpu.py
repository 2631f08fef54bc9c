"""biotrainer with use_class_weights: the balanced class weights computed from the labels stay on the CPU.

Source: https://github.com/sacdallago/biotrainer/issues/67
With `use_class_weights: True` in the config, biotrainer computes per-class weights from the
training labels ("Individual class counts and weights" in the log) and builds
`CrossEntropyLoss(weight=...)` from them; training the CNN on the GPU then failed with a device
error because the weight tensor was created from the numpy counts on the CPU and never sent to the
device (issue title: "Class weights need to be sent to the device"). Stand-ins: a
sklearn-`compute_class_weight('balanced')`-style helper, a light CNN and a Solver holding model and
loss; the fix sends the loss (its `weight` buffer) to the training device.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
from torch import nn

def compute_class_weight(class_weight, classes, y):
    counts = np.bincount(y, minlength=len(classes))
    return len(y) / (len(classes) * counts)

class LightAttention(nn.Module):
    def __init__(self, embeddings_dim=128, output_dim=8):
        super().__init__()
        self.feature_convolution = nn.Linear(embeddings_dim, 64)
        self.output = nn.Linear(64, output_dim)

    def forward(self, x):
        return self.output(torch.relu(self.feature_convolution(x)))

class Solver:
    def __init__(self, network, loss_function, optimizer, device):
        self.network, self.loss_function = network, loss_function
        self.optimizer, self.device = optimizer, device

    def training_iteration(self, embeddings, targets):
        embeddings, targets = embeddings.to(self.device), targets.to(self.device)
        predictions = self.network(embeddings)
        return self.loss_function(predictions, targets)

device = torch.device("cuda:0")
training_targets = np.random.randint(0, 8, size=2000)
class_weights = torch.tensor(compute_class_weight('balanced', classes=np.arange(8), y=training_targets),
                             dtype=torch.float32)
loss_function = nn.CrossEntropyLoss(weight=class_weights)
model = LightAttention().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
solver = Solver(model, loss_function, optimizer, device)
embeddings = torch.randn(32, 128)
targets = torch.randint(0, 8, (32,))
'''
CELL = '''
loss = solver.training_iteration(embeddings, targets)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["loss_function"]
FIX = "namespace"
REFERENCE_FIX = '''
loss_function.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
