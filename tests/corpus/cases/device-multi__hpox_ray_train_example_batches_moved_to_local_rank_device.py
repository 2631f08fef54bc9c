"""Ray Train datasets example: batches moved to `cuda:{local_rank}` while `prepare_model` put the model on `get_device()`.

Source: https://github.com/ray-project/ray/pull/29332
The flaky `datasets_train` release test built its device by hand from the local rank
(`device = torch.device(f"cuda:{session.get_local_rank()}")`) and moved every batch there, while
`train.torch.prepare_model` had placed the model on `train.torch.get_device()`. With Ray Train's
shared CUDA_VISIBLE_DEVICES the local rank is not always the device index, so a worker's inputs and
model can land on different GPUs. The fix: "The example should be using train.torch.get_device()
rather than manually setting with local_rank."
Stand-ins: the worker session (local rank 0, assigned GPU index 1), get_device/prepare_model,
a small tabular classifier.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

class _Session:
    def get_local_rank(self):
        return 0

session = _Session()

def get_device():
    return torch.device("cuda:1")

def prepare_model(model):
    return model.to(get_device())

class Net(nn.Module):
    def __init__(self, n_layers=3, n_features=16, num_hidden=32, dropout_every=2, drop_prob=0.2):
        super().__init__()
        layers = [nn.Linear(n_features, num_hidden), nn.ReLU()]
        for i in range(n_layers - 1):
            layers += [nn.Linear(num_hidden, num_hidden), nn.ReLU()]
            if i % dropout_every == 0:
                layers.append(nn.Dropout(drop_prob))
        layers.append(nn.Linear(num_hidden, 1))
        self.net = nn.Sequential(*layers)

    def forward(self, x):
        return self.net(x)

net = prepare_model(Net())
device = torch.device(f"cuda:{session.get_local_rank()}")
criterion = nn.BCEWithLogitsLoss()
batch = (torch.randn(64, 16), torch.randint(0, 2, (64, 1)).float())   # from the Ray Dataset iterator
'''
CELL = '''
inputs, labels = batch
inputs = inputs.to(device)
labels = labels.to(device)
outputs = net(inputs.float())
loss = criterion(outputs, labels.float())
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["device"]
FIX = "namespace"
REFERENCE_FIX = '''
device = get_device()
'''
REFERENCE_EDIT = None
CLEAN = False
