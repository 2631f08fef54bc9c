"""FedAvg with differential-privacy noise: the server's `add_noise` does `parameters.add_(noise)` on every state-dict entry, including BatchNorm's int64 `num_batches_tracked`.

Source: https://github.com/heroding77/fedavg_encrypt/issues/2
Switching the dataset to CIFAR-10 and the model to ResNet18 with Gaussian DP noise gave
`RuntimeError: result type Float can't be cast to the desired output type Long`. The user's
resolution: with ResNet18 (a network with BN layers) the noise is added to
`batchnorm.num_batches_tracked`; set the BN layers' `track_running_stats=False`
(`nn.BatchNorm2d(64, track_running_stats=False)`), so the averaged state dict holds no integer buffer.
Stand-in: server.py's `add_noise` and aggregation loop with `dev` on the CPU (upstream draws the
Gaussian noise with `torch.cuda.FloatTensor(...).normal_`); the ResNet18 reduced to a stem conv+BN,
one residual block and the classifier; `localUpdate` returns the client's state dict without training.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

dev = torch.device("cpu")
dp = 2            # 0: no noise, 1: Laplace, else Gaussian
sigma = 0.01

def add_noise(parameters, dp, dev):
    noise = None
    if dp == 0:
        return parameters
    elif dp == 1:
        noise = torch.tensor(np.random.laplace(0, sigma, parameters.shape)).to(dev)
    else:
        noise = torch.empty(parameters.shape, device=dev).normal_(0, sigma)
    return parameters.add_(noise)

class RestNetBasicBlock(nn.Module):
    def __init__(self, in_channels, out_channels, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(in_channels, out_channels, kernel_size=3, stride=stride, padding=1)
        self.conv2 = nn.Conv2d(out_channels, out_channels, kernel_size=3, stride=stride, padding=1)

    def forward(self, x):
        output = F.relu(self.conv1(x))
        output = self.conv2(output)
        return F.relu(x + output)

class RestNet18(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 64, kernel_size=7, stride=2, padding=3)
        self.bn1 = nn.BatchNorm2d(64)
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
        self.layer1 = RestNetBasicBlock(64, 64, 1)
        self.avgpool = nn.AdaptiveAvgPool2d(output_size=(1, 1))
        self.fc = nn.Linear(64, 10)

    def forward(self, x):
        out = self.maxpool(F.relu(self.bn1(self.conv1(x))))
        out = self.avgpool(self.layer1(out))
        return self.fc(out.reshape(x.shape[0], -1))

class client:
    def localUpdate(self, localEpoch, localBatchSize, Net, lossFun, opti, global_parameters):
        Net.load_state_dict(global_parameters, strict=True)
        return {k: v.clone() for k, v in Net.state_dict().items()}

net = RestNet18().to(dev)
loss_func = F.cross_entropy
opti = torch.optim.SGD(net.parameters(), lr=0.01)
clients_set = {"client{}".format(i): client() for i in range(3)}
num_in_comm = 3
global_parameters = {key: var.clone() for key, var in net.state_dict().items()}
'''
CELL = '''
sum_parameters = None
for name in clients_set:
    local_parameters = clients_set[name].localUpdate(5, 10, net, loss_func, opti, global_parameters)
    if sum_parameters is None:
        sum_parameters = {}
        for key, var in local_parameters.items():
            sum_parameters[key] = var.clone()
            sum_parameters[key] = add_noise(sum_parameters[key], dp, dev)
    else:
        for key in sum_parameters:
            sum_parameters[key].add_(add_noise(local_parameters[key], dp, dev))

for var in global_parameters:
    global_parameters[var] = (sum_parameters[var] / num_in_comm)
net.load_state_dict(global_parameters, strict=True)
'''
EXPECT_ERROR = "result type Float can't be cast to the desired output type Long"
CULPRITS = ["net"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("self.bn1 = nn.BatchNorm2d(64)", "self.bn1 = nn.BatchNorm2d(64, track_running_stats=False)")
CLEAN = False
