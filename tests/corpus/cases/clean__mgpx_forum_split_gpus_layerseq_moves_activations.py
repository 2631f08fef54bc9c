"""Look-alike: a network split by hand across two GPUs (`split_gpus`), two Sequential halves, the activations moved between them in forward.

Source: https://discuss.pytorch.org/t/model-parallelism-in-multi-gpus-forward-backward-graph/27679
Answering how the graph spans GPUs, users show the pattern: `layerseq1` on GPU 0, `layerseq2` on GPU 1,
and in forward `x = x.to("cuda:1")` after the first half when `split_gpus` is set; the backward graph
follows the devices. Parameters on two GPUs on purpose, each op on one; targets are put where the
output lands. Stand-in: small layer sequences instead of the user's ("some layers").
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from collections import OrderedDict
import torch
import torch.nn as nn

class Network(nn.Module):
    def __init__(self, split_gpus):
        super().__init__()
        self.layerseq1 = nn.Sequential(OrderedDict([("fc1", nn.Linear(32, 64)), ("relu1", nn.ReLU())]))
        self.layerseq2 = nn.Sequential(OrderedDict([("fc2", nn.Linear(64, 64)), ("relu2", nn.ReLU()),
                                                    ("out", nn.Linear(64, 10))]))
        self.split_gpus = split_gpus
        if self.split_gpus:
            self.layerseq1.to("cuda:0")
            self.layerseq2.to("cuda:1")

    def forward(self, x):
        x = self.layerseq1(x)
        if self.split_gpus:
            x = x.to("cuda:1")
        return self.layerseq2(x)

net = Network(split_gpus=True)
criterion = nn.CrossEntropyLoss()
inputs = torch.randn(8, 32).to("cuda:0")
targets = torch.randint(0, 10, (8,)).to("cuda:1")
'''
CELL = '''
outputs = net(inputs)
loss = criterion(outputs, targets)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
