"""Look-alike: pytorch-pose's training step moves input, target and `meta['target_weight']` to the GPU; the rest of the `meta` dict stays on the CPU.

Source: https://github.com/bearpaw/pytorch-pose/blob/master/example/main.py
`train()` does `input, target = input.to(device), target.to(device, non_blocking=True)` and
`target_weight = meta['target_weight'].to(device, non_blocking=True)`, then sums
`criterion(o, target, target_weight)` over the stacked hourglass outputs with `JointsMSELoss`
(`pose/losses/jointsmseloss.py`). The other `meta` entries (index, center, scale, pts, tpts) are
CPU tensors that the loss never touches; only the accuracy/visualisation code reads them. Nothing
to report. Stand-in: a two-stack mini hourglass returning a list of heatmaps, JointsMSELoss as in
the repo, one collated batch; the GPU is simulated by meta, and the PCK `accuracy` call (which
branches on tensor values) is left out.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class JointsMSELoss(nn.Module):
    def __init__(self, use_target_weight=True):
        super(JointsMSELoss, self).__init__()
        self.criterion = nn.MSELoss(reduction='mean')
        self.use_target_weight = use_target_weight

    def forward(self, output, target, target_weight):
        batch_size = output.size(0)
        num_joints = output.size(1)
        heatmaps_pred = output.reshape((batch_size, num_joints, -1)).split(1, 1)
        heatmaps_gt = target.reshape((batch_size, num_joints, -1)).split(1, 1)
        loss = 0

        for idx in range(num_joints):
            heatmap_pred = heatmaps_pred[idx].squeeze()
            heatmap_gt = heatmaps_gt[idx].squeeze()
            if self.use_target_weight:
                loss += 0.5 * self.criterion(
                    heatmap_pred.mul(target_weight[:, idx]),
                    heatmap_gt.mul(target_weight[:, idx])
                )
            else:
                loss += 0.5 * self.criterion(heatmap_pred, heatmap_gt)

        return loss / num_joints

class HourglassNet(nn.Module):
    def __init__(self, num_stacks=2, num_classes=16, planes=16):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, planes, 7, 2, 3), nn.ReLU(), nn.MaxPool2d(2))
        self.hg = nn.ModuleList([nn.Sequential(nn.Conv2d(planes, planes, 3, 1, 1), nn.ReLU())
                                 for _ in range(num_stacks)])
        self.score = nn.ModuleList([nn.Conv2d(planes, num_classes, 1) for _ in range(num_stacks)])

    def forward(self, x):
        out = []
        x = self.stem(x)
        for hg, score in zip(self.hg, self.score):
            y = hg(x)
            out.append(score(y))
            x = x + y
        return out

device = torch.device("meta")   # torch.device("cuda" if torch.cuda.is_available() else "cpu"), GPU simulated by meta
model = HourglassNet(num_stacks=2, num_classes=16).to(device)
criterion = JointsMSELoss(use_target_weight=True).to(device)
optimizer = torch.optim.RMSprop(model.parameters(), lr=2.5e-4)

# one batch from the MPII loader: (input, target, meta)
B = 4
input = torch.rand(B, 3, 64, 64)
target = torch.rand(B, 16, 16, 16)
meta = {'index': torch.arange(B), 'center': torch.rand(B, 2) * 256, 'scale': torch.rand(B) + 1,
        'pts': torch.rand(B, 16, 3), 'tpts': torch.rand(B, 16, 3), 'target_weight': torch.ones(B, 16, 1)}
'''
CELL = '''
model.train()
input, target = input.to(device), target.to(device, non_blocking=True)
target_weight = meta['target_weight'].to(device, non_blocking=True)

# compute output
output = model(input)
if type(output) == list:  # multiple output
    loss = 0
    for o in output:
        loss += criterion(o, target, target_weight)
    output = output[-1]
else:  # single output
    loss = criterion(output, target, target_weight)

# compute gradient and do SGD step
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
