"""Look-alike: the DDP tutorial's ToyMpModel, a model split by hand over two GPUs, moving activations between them in forward.

Source: https://discuss.pytorch.org/t/how-to-split-a-pretrained-model-for-model-parallelism/100686
The thread quotes the DDP tutorial's model-parallel example: `net1` on `dev0`, `net2` on `dev1`, and
forward moves the input to dev0 and the activations to dev1 (`x.to(self.dev1)`); the answer says to
place layers by hand the same way and send activations to the next GPU. Parameters live on two GPUs
on purpose and every op sees one device; the output comes back on dev1, where the labels are put.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class ToyMpModel(nn.Module):
    def __init__(self, dev0, dev1):
        super(ToyMpModel, self).__init__()
        self.dev0 = dev0
        self.dev1 = dev1
        self.net1 = torch.nn.Linear(10, 10).to(dev0)
        self.relu = torch.nn.ReLU()
        self.net2 = torch.nn.Linear(10, 5).to(dev1)

    def forward(self, x):
        x = x.to(self.dev0)
        x = self.relu(self.net1(x))
        x = x.to(self.dev1)
        return self.net2(x)

rank = 0
dev0 = rank * 2
dev1 = rank * 2 + 1
mp_model = ToyMpModel(f"cuda:{dev0}", f"cuda:{dev1}")
loss_fn = nn.MSELoss()
inputs = torch.randn(20, 10)
labels = torch.randn(20, 5).to(f"cuda:{dev1}")
'''
CELL = '''
outputs = mp_model(inputs)
loss = loss_fn(outputs, labels)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
