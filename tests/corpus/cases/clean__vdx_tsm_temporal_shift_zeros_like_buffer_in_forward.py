"""TSM training step: `TemporalShift.shift` allocates its output inside forward with `torch.zeros_like(x)`, so the shifted buffer follows the input's device.

Source: https://github.com/mit-han-lab/temporal-shift-module/blob/master/ops/temporal_shift.py
(with ops/models.py and main.py). `make_temporal_shift` wraps the first conv of every residual block
in `TemporalShift`, whose static `shift` reshapes the (N*T, C, H, W) activations to
(N, T, C, H, W), builds `out = torch.zeros_like(x)` and copies the left/right-shifted channel folds
into it; `TSN.forward` views the (N, T*3, H, W) batch as frames and averages the segment scores.
The training loop sends `target` (and the input) to the GPU and steps SGD. Stand-in: a two-block
ResNet-ish backbone at toy size with the shift in each block's conv1, avg consensus, one
iteration of main.py's `train`; the GPU is played by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class TemporalShift(nn.Module):
    def __init__(self, net, n_segment=3, n_div=8, inplace=False):
        super(TemporalShift, self).__init__()
        self.net = net
        self.n_segment = n_segment
        self.fold_div = n_div
        self.inplace = inplace

    def forward(self, x):
        x = self.shift(x, self.n_segment, fold_div=self.fold_div, inplace=self.inplace)
        return self.net(x)

    @staticmethod
    def shift(x, n_segment, fold_div=3, inplace=False):
        nt, c, h, w = x.size()
        n_batch = nt // n_segment
        x = x.view(n_batch, n_segment, c, h, w)
        fold = c // fold_div
        out = torch.zeros_like(x)
        out[:, :-1, :fold] = x[:, 1:, :fold]  # shift left
        out[:, 1:, fold: 2 * fold] = x[:, :-1, fold: 2 * fold]  # shift right
        out[:, :, 2 * fold:] = x[:, :, 2 * fold:]  # not shift
        return out.view(nt, c, h, w)

class BasicBlock(nn.Module):
    def __init__(self, planes):
        super().__init__()
        self.conv1 = nn.Conv2d(planes, planes, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.relu = nn.ReLU(inplace=True)

    def forward(self, x):
        out = self.relu(self.bn1(self.conv1(x)))
        return self.relu(self.bn2(self.conv2(out)) + x)

def make_temporal_shift(net, n_segment, n_div=8):
    for block in net.layer1:
        block.conv1 = TemporalShift(block.conv1, n_segment=n_segment, n_div=n_div)

class TinyResNet(nn.Module):
    def __init__(self, num_classes=174):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, stride=2, padding=1, bias=False)
        self.layer1 = nn.Sequential(BasicBlock(16), BasicBlock(16))
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(16, num_classes)

    def forward(self, x):
        x = self.layer1(self.conv1(x))
        return self.fc(self.avgpool(x).flatten(1))

class TSN(nn.Module):
    def __init__(self, num_class, num_segments, shift_div=8):
        super(TSN, self).__init__()
        self.num_segments = num_segments
        self.new_length = 1
        self.base_model = TinyResNet(num_classes=num_class)
        make_temporal_shift(self.base_model, num_segments, n_div=shift_div)

    def forward(self, input):
        sample_len = 3 * self.new_length
        base_out = self.base_model(input.view((-1, sample_len) + input.size()[-2:]))
        base_out = base_out.view((-1, self.num_segments) + base_out.size()[1:])
        output = base_out.mean(dim=1, keepdim=True)   # ConsensusModule('avg')
        return output.squeeze(1)

device = torch.device("meta")    # the GPU, simulated with meta
model = TSN(num_class=174, num_segments=8, shift_div=8).to(device)
criterion = torch.nn.CrossEntropyLoss().to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, weight_decay=5e-4)

# one Something-Something batch from TSNDataSet: 2 videos x 8 segments x RGB frames, CPU tensors
input = torch.randn(2, 8 * 3, 32, 32)
target = torch.tensor([12, 140])
'''
CELL = '''
model.train()
target = target.to(device)
input_var = input.to(device)
output = model(input_var)
loss = criterion(output, target)
optimizer.zero_grad()
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
