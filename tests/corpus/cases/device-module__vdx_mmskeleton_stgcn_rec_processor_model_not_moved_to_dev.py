"""mmskeleton ST-GCN recognition: `REC_Processor.load_model` leaves the ST-GCN and its loss on the CPU while `train()` sends every batch to `self.dev`.

Source: https://github.com/open-mmlab/mmskeleton/issues/305
Training ST-GCN on a custom skeleton dataset with `python main.py recognition -c
config/st_gcn/<dataset>/train.yaml` failed at the model's first BatchNorm with "Tensor for argument #2
'weight' is on CPU, but expected it to be on GPU (while checking arguments for cudnn_batch_norm)".
`train()` does `data = data.float().to(self.dev)`, but in the reporters' (edited) copy nothing moved
the network: the fix given in the thread is in `processor/recognition.py` lines 43-44,
`self.model.apply(weights_init).to(self.dev)` and `self.loss = nn.CrossEntropyLoss().to(self.dev)`.
Stand-in: the Processor/REC_Processor skeleton of the st-gcn code (argument parsing, IO, logging
and the `.item()` statistics left out) around a toy ST-GCN (data_bn + one graph conv + fc); the GPU
is played by meta so that `loss.backward()` runs.
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim

def weights_init(m):
    classname = m.__class__.__name__
    if classname.find('Conv2d') != -1:
        m.weight.data.normal_(0.0, 0.02)
        if m.bias is not None:
            m.bias.data.fill_(0)
    elif classname.find('BatchNorm') != -1:
        m.weight.data.normal_(1.0, 0.02)
        m.bias.data.fill_(0)

class Model(nn.Module):
    """ST-GCN at toy size: data_bn over (V*C), one spatial graph conv, global pooling, fc."""
    def __init__(self, in_channels=3, num_class=5, num_point=18):
        super().__init__()
        A = np.eye(num_point, dtype=np.float32)
        self.register_buffer('A', torch.tensor(A))
        self.data_bn = nn.BatchNorm1d(in_channels * num_point)
        self.gcn = nn.Conv2d(in_channels, 64, kernel_size=1)
        self.tcn = nn.Sequential(nn.BatchNorm2d(64), nn.ReLU(), nn.Conv2d(64, 64, (9, 1), padding=(4, 0)))
        self.fcn = nn.Conv2d(64, num_class, kernel_size=1)

    def forward(self, x):
        N, C, T, V, M = x.size()
        x = x.permute(0, 4, 3, 1, 2).contiguous().view(N * M, V * C, T)
        x = self.data_bn(x)
        x = x.view(N, M, V, C, T).permute(0, 1, 3, 4, 2).contiguous().view(N * M, C, T, V)
        x = torch.einsum('nctv,vw->nctw', (self.gcn(x), self.A))
        x = self.tcn(x)
        x = nn.functional.avg_pool2d(x, x.size()[2:]).view(N, M, -1, 1, 1).mean(dim=1)
        return self.fcn(x).view(x.size(0), -1)

class Processor:
    def __init__(self, arg):
        self.arg = arg
        self.init_environment()
        self.load_model()
        self.load_data()
        self.load_optimizer()

    def init_environment(self):
        self.dev = torch.device("meta") if self.arg['use_gpu'] else torch.device("cpu")   # "cuda:0"
        self.iter_info, self.epoch_info, self.meta_info = dict(), dict(), dict(epoch=0, iter=0)

    def load_data(self):
        rng = np.random.default_rng(0)
        data = torch.from_numpy(rng.standard_normal((8, 3, 30, 18, 2)).astype(np.float32))
        label = torch.from_numpy(rng.integers(0, 5, 8))
        self.data_loader = dict(train=[(data, label)])

class REC_Processor(Processor):
    def load_model(self):
        self.model = Model(**self.arg['model_args'])
        self.model.apply(weights_init)
        self.loss = nn.CrossEntropyLoss()

    def load_optimizer(self):
        self.optimizer = optim.SGD(self.model.parameters(), lr=self.arg['base_lr'], momentum=0.9,
                                   nesterov=True, weight_decay=0.0001)

    def train(self):
        self.model.train()
        for data, label in self.data_loader['train']:
            # get data
            data = data.float().to(self.dev)
            label = label.long().to(self.dev)
            # forward
            output = self.model(data)
            loss = self.loss(output, label)
            # backward
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self.meta_info['iter'] += 1

arg = dict(use_gpu=True, base_lr=0.1, model_args=dict(in_channels=3, num_class=5, num_point=18))
processor = REC_Processor(arg)
'''
CELL = '''
processor.train()
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device",
                "should be the same")
CULPRITS = ["processor"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        self.model.apply(weights_init)\n        self.loss = nn.CrossEntropyLoss()\n",
    "        self.model.apply(weights_init).to(self.dev)\n        self.loss = nn.CrossEntropyLoss().to(self.dev)\n",
)
CLEAN = False
