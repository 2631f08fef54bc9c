"""Look-alike: dlshogi's training script (after the #40 fix) decodes each batch into host buffers and sends every field to `torch.device(f"cuda:{args.gpu}")`, with the shogi policy-value network on the second GPU.

Source: https://github.com/TadaoYamaoka/DeepLearningShogi/blob/274bd9447e964706bea96f807cedebd19e03e7a7/dlshogi/train_rl_policy_with_value_using_hcpe_bootstrap.py
The script's `DataLoader` keeps host buffers for the two feature planes (float32), the move label
(int64), the game result and the value (float32); `mini_batch` decodes hcpe records into them with
`cppshogi.hcpe_decode_with_value`, computes `z = self.result - self.value + 0.5` in numpy and returns
`self.torch_features1.to(device)`, ..., `torch.tensor(z).to(device)`. Since the fix for issue #40 the
device is `torch.device(f"cuda:{args.gpu}")` (explicit index) for both the model and the loader, so with
`--gpu 1` everything meets on cuda:1: int64 move labels for `CrossEntropyLoss(reduction='none')`, float
targets for `BCEWithLogitsLoss`, a non-default GPU used consistently. Stand-ins: `PolicyValueNetwork`
cut to three conv layers plus the `Bias` module and the value MLP (BatchNorm left out, as its
training-mode update cannot run on the simulated GPU); the C++ decoder replaced by random fills; the
buffers allocated as numpy arrays and wrapped with `torch.from_numpy` (the script allocates pinned torch
tensors and takes `.numpy()` views), and `mini_batch` called directly instead of from the prefetch
thread; forward and losses only (no backward).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

FEATURES1_NUM, FEATURES2_NUM, MAX_MOVE_LABEL_NUM = 62, 57, 27

class Bias(nn.Module):
    def __init__(self, shape):
        super(Bias, self).__init__()
        self.bias = nn.Parameter(torch.zeros(shape))

    def forward(self, input):
        return input + self.bias

class PolicyValueNetwork(nn.Module):
    def __init__(self, k=16, fcl=32):
        super(PolicyValueNetwork, self).__init__()
        self.l1_1_1 = nn.Conv2d(FEATURES1_NUM, k, kernel_size=3, padding=1, bias=False)
        self.l1_1_2 = nn.Conv2d(FEATURES1_NUM, k, kernel_size=1, padding=0, bias=False)
        self.l1_2 = nn.Conv2d(FEATURES2_NUM, k, kernel_size=1, bias=False)
        self.l2 = nn.Conv2d(k, k, kernel_size=3, padding=1, bias=False)
        self.l22 = nn.Conv2d(k, MAX_MOVE_LABEL_NUM, kernel_size=1, bias=False)
        self.l22_2 = Bias(9 * 9 * MAX_MOVE_LABEL_NUM)
        self.l22_v = nn.Conv2d(k, MAX_MOVE_LABEL_NUM, kernel_size=1, bias=False)
        self.l23_v = nn.Linear(9 * 9 * MAX_MOVE_LABEL_NUM, fcl)
        self.l24_v = nn.Linear(fcl, 1)
        self.swish = nn.SiLU()

    def forward(self, x1, x2):
        u1 = self.swish(self.l1_1_1(x1) + self.l1_1_2(x1) + self.l1_2(x2))
        h2 = self.swish(self.l2(u1))
        h22 = self.l22(h2)
        h22_1 = self.l22_2(h22.view(-1, 9 * 9 * MAX_MOVE_LABEL_NUM))
        h22_v = self.swish(self.l22_v(h2))
        h23_v = self.swish(self.l23_v(h22_v.view(-1, 9 * 9 * MAX_MOVE_LABEL_NUM)))
        return h22_1, self.l24_v(h23_v)

class args:
    gpu = 1
    batchsize = 8
    beta = 0.001
    val_lambda = 0.333

if args.gpu >= 0:
    device = torch.device(f"cuda:{args.gpu}")
else:
    device = torch.device("cpu")

model = PolicyValueNetwork()
model.to(device)
cross_entropy_loss = torch.nn.CrossEntropyLoss(reduction='none')
bce_with_logits_loss = torch.nn.BCEWithLogitsLoss()

def hcpe_decode_with_value(hcpevec, features1, features2, move, result, value):
    """stand-in for cppshogi.hcpe_decode_with_value: fills the host buffers in place."""
    rng = np.random.default_rng(len(hcpevec))
    features1[...] = rng.integers(0, 2, features1.shape)
    features2[...] = rng.integers(0, 2, features2.shape)
    move[...] = rng.integers(0, 9 * 9 * MAX_MOVE_LABEL_NUM, move.shape)
    result[...] = rng.integers(0, 2, result.shape)
    value[...] = rng.random(value.shape)

class DataLoader:
    def __init__(self, data, batch_size, shuffle=False):
        self.data = data
        self.batch_size = batch_size
        self.shuffle = shuffle
        self.features1 = np.empty((batch_size, FEATURES1_NUM, 9, 9), dtype=np.float32)
        self.features2 = np.empty((batch_size, FEATURES2_NUM, 9, 9), dtype=np.float32)
        self.move = np.empty((batch_size), dtype=np.int64)
        self._result = np.empty((batch_size, 1), dtype=np.float32)
        self._value = np.empty((batch_size, 1), dtype=np.float32)
        self.result = self._result.reshape(-1)
        self.value = self._value.reshape(-1)

    def _host_tensors(self):
        # the script's pinned torch buffers share memory with the numpy views above
        return (torch.from_numpy(self.features1), torch.from_numpy(self.features2), torch.from_numpy(self.move),
                torch.from_numpy(self._result), torch.from_numpy(self._value))

    def mini_batch(self, hcpevec):
        hcpe_decode_with_value(hcpevec, self.features1, self.features2, self.move, self.result, self.value)
        z = self.result - self.value + 0.5
        self.torch_features1, self.torch_features2, self.torch_move, self.torch_result, self.torch_value = self._host_tensors()
        return (self.torch_features1.to(device),
                self.torch_features2.to(device),
                self.torch_move.to(device),
                self.torch_result.to(device),
                torch.tensor(z).to(device),
                self.torch_value.to(device))

train_data = np.zeros(64, dtype=np.uint8)          # hcpe records (opaque here)
train_dataloader = DataLoader(train_data, args.batchsize, shuffle=True)
'''
CELL = '''
x1, x2, t1, t2, z, value = train_dataloader.mini_batch(train_data[:args.batchsize])
model.train()
with torch.no_grad():
    y1, y2 = model(x1, x2)
    loss1 = (cross_entropy_loss(y1, t1) * z).mean()
    if args.beta > 0:
        loss1 += args.beta * (F.softmax(y1, dim=1) * F.log_softmax(y1, dim=1)).sum(dim=1).mean()
    loss2 = bce_with_logits_loss(y2, t2)
    loss3 = bce_with_logits_loss(y2, value)
    loss = loss1 + (1 - args.val_lambda) * loss2 + args.val_lambda * loss3
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
