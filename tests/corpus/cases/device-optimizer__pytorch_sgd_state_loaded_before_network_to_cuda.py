"""Resume order: SGD built and its state loaded while the network is on the CPU, the network moved to CUDA afterwards.

Source: https://github.com/pytorch/pytorch/issues/8741
"Right now, the following script crashes with an error that the optimizer expects a
torch.FloatTensor but got a torch.cuda.FloatTensor": `optim = torch.optim.SGD(network.parameters(),
...)`, `state = torch.load(path, lambda storage, loc: storage)`, `network.load_state_dict(...)`,
`optim.load_state_dict(...)`, then `network.to(torch.device('cuda'))`. The momentum buffers were
cast to the CPU parameters at load time and never follow the later move. Stand-in: a small
network; the gradients are what backward leaves.
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import torch
from torch import nn

class Network(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv_features = nn.Sequential(nn.Linear(32, 64), nn.LeakyReLU(0.1))
        self.head = nn.Linear(64, 5)

    def forward(self, x):
        return self.head(self.conv_features(x))

# what torch.save wrote after some epochs (read back with map_location to the CPU)
_net = Network()
_opt = torch.optim.SGD(_net.parameters(), lr=0.001, momentum=0.9, weight_decay=0.0005)
for _p in _net.parameters():
    _p.grad = torch.ones_like(_p)
_opt.step()
state = {"network": _net.state_dict(), "optim": _opt.state_dict(), "seen": 12800}

network = Network()
optim = torch.optim.SGD(network.parameters(), lr=0.001, momentum=0.9, weight_decay=0.0005)
network.load_state_dict(state["network"])
optim.load_state_dict(state["optim"])
network.to(torch.device("cuda:0"))

def train_batch(network, optim, data):
    optim.zero_grad()
    out = network(data)
    for p in network.parameters():     # stand-in for loss.backward()
        p.grad = torch.ones_like(p)
    optim.step()
    return out

data = torch.randn(16, 32).to("cuda:0")
'''
CELL = '''
out = train_batch(network, optim, data)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["optim"]
FIX = "namespace"
REFERENCE_FIX = '''
for st in optim.state.values():
    for k, v in st.items():
        if torch.is_tensor(v):
            st[k] = v.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
