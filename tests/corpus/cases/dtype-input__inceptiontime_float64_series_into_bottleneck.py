"""InceptionTime on a new dataset: the float64 series from NumPy hit the float32 bottleneck convolution.

Source: https://github.com/TheMrGhostman/InceptionTime-Pytorch/issues/2
Adapting the repository to another dataset, the user got "RuntimeError: expected scalar type Double
but found Float" in the first line of `Inception.forward` (the bottleneck `Conv1d`). The series were
turned into tensors straight from float64 NumPy arrays; the fix was `X = X.float()` (the author:
"When I preprocess data, I usually convert ... into torch.tensor and make it float manually").
Stand-in: the repository's `Inception` block (bottleneck, three convolutions, max-pool branch).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn

class Inception(nn.Module):
    def __init__(self, in_channels, n_filters, kernel_sizes=(9, 19, 39), bottleneck_channels=32):
        super().__init__()
        self.bottleneck = nn.Conv1d(in_channels, bottleneck_channels, kernel_size=1, bias=False)
        self.conv_from_bottleneck = nn.ModuleList(
            nn.Conv1d(bottleneck_channels, n_filters, k, padding=k // 2, bias=False) for k in kernel_sizes)
        self.max_pool = nn.MaxPool1d(kernel_size=3, stride=1, padding=1)
        self.conv_from_maxpool = nn.Conv1d(in_channels, n_filters, kernel_size=1, bias=False)
        self.batch_norm = nn.BatchNorm1d(4 * n_filters)
        self.activation = nn.ReLU()

    def forward(self, X):
        Z_bottleneck = self.bottleneck(X)
        Z_maxpool = self.max_pool(X)
        Z = [conv(Z_bottleneck) for conv in self.conv_from_bottleneck] + [self.conv_from_maxpool(Z_maxpool)]
        return self.activation(self.batch_norm(torch.cat(Z, dim=1)))

model = nn.Sequential(Inception(1, 8), Inception(32, 8), nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(32, 4))
series = np.random.randn(16, 1, 128)             # the new dataset, float64 like NumPy makes it
X = torch.from_numpy(series)
y = torch.from_numpy(np.random.randint(0, 4, 16))
'''
CELL = '''
logits = model(X)
loss = nn.functional.cross_entropy(logits, y)
loss.backward()
'''
EXPECT_ERROR = ("expected scalar type Double but found Float",
                "Input type (double) and bias type (float) should be the same",
                "Input type (torch.DoubleTensor) and weight type (torch.FloatTensor) should be the same")
CULPRITS = ["X"]
FIX = "namespace"
REFERENCE_FIX = '''
X = X.float()
'''
REFERENCE_EDIT = None
CLEAN = False
