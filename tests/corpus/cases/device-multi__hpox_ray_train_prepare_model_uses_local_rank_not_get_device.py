"""Ray Train: `prepare_model` moves the model to `cuda:{local_rank}` while the batches go to `train.torch.get_device()`.

Source: https://github.com/ray-project/ray/pull/29104
"Previously, `prepare_model` would use the local rank as the device even though local rank may not
be the same as the actual device index. This mismatch can happen when CUDA_VISIBLE_DEVICES is set
for example, which we do by default in Ray Train" (closes ray#28996). A worker whose local rank is 0
but which was given the node's second GPU gets its model on cuda:0 and, from
`prepare_data_loader`, its batches on cuda:1. The fix uses `train.torch.get_device()` in
`prepare_model`.
Stand-ins: the worker session (local rank 0, assigned GPU index 1), `get_device`, `prepare_model`
(single worker, no DDP wrap) and a FashionMNIST-shaped MLP.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

class _Session:
    def get_local_rank(self):
        return 0
    def get_world_size(self):
        return 1

session = _Session()

def get_device():                          # CUDA_VISIBLE_DEVICES="0,1", this worker owns GPU 1
    return torch.device("cuda:1")

def prepare_model(model, move_to_device=True):
    rank = session.get_local_rank()
    device = torch.device(f"cuda:{rank}")
    if move_to_device:
        model = model.to(device)
    return model

class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(28 * 28, 512), nn.ReLU(),
            nn.Linear(512, 512), nn.ReLU(),
            nn.Linear(512, 10))

    def forward(self, x):
        return self.linear_relu_stack(self.flatten(x))

model = prepare_model(NeuralNetwork())
X = torch.randn(64, 1, 28, 28, device=get_device())      # from prepare_data_loader
y = torch.randint(0, 10, (64,), device=get_device())
loss_fn = nn.CrossEntropyLoss()
'''
CELL = '''
pred = model(X)
loss = loss_fn(pred, y)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('device = torch.device(f"cuda:{rank}")', "device = get_device()")
CLEAN = False
