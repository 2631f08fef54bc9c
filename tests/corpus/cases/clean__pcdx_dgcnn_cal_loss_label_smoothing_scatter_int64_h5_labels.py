"""Look-alike: DGCNN's cal_loss one-hot encodes int64 ModelNet40 labels with scatter for label smoothing.

Source: https://github.com/WangYueFt/dgcnn/blob/master/pytorch/util.py (`cal_loss`) and
pytorch/main.py (training step). The h5 labels are read as int64 `(N, 1)` arrays and moved with
`label.to(device).squeeze()`; `cal_loss` flattens them, builds the one-hot target with
`torch.zeros_like(pred).scatter(1, gold.view(-1, 1), 1)`, smooths it and takes the log-softmax
cross entropy by hand: integer labels next to a float soft target on purpose; the cell runs.
Stand-ins: the PointNet classifier of the same repo reduced to three 1x1 convs and the head; the
loader's batch made with the shapes ModelNet40 gives; eval mode (a simulation limit).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

def cal_loss(pred, gold, smoothing=True):
    gold = gold.contiguous().view(-1)

    if smoothing:
        eps = 0.2
        n_class = pred.size(1)

        one_hot = torch.zeros_like(pred).scatter(1, gold.view(-1, 1), 1)
        one_hot = one_hot * (1 - eps) + (1 - one_hot) * eps / (n_class - 1)
        log_prb = F.log_softmax(pred, dim=1)

        loss = -(one_hot * log_prb).sum(dim=1).mean()
    else:
        loss = F.cross_entropy(pred, gold, reduction='mean')

    return loss

class PointNet(nn.Module):
    def __init__(self, emb_dims=256, output_channels=40):
        super(PointNet, self).__init__()
        self.conv1 = nn.Conv1d(3, 64, kernel_size=1, bias=False)
        self.conv2 = nn.Conv1d(64, 128, kernel_size=1, bias=False)
        self.conv5 = nn.Conv1d(128, emb_dims, kernel_size=1, bias=False)
        self.bn1 = nn.BatchNorm1d(64)
        self.bn2 = nn.BatchNorm1d(128)
        self.bn5 = nn.BatchNorm1d(emb_dims)
        self.linear1 = nn.Linear(emb_dims, 512, bias=False)
        self.bn6 = nn.BatchNorm1d(512)
        self.dp1 = nn.Dropout()
        self.linear2 = nn.Linear(512, output_channels)

    def forward(self, x):
        x = F.relu(self.bn1(self.conv1(x)))
        x = F.relu(self.bn2(self.conv2(x)))
        x = F.relu(self.bn5(self.conv5(x)))
        x = F.adaptive_max_pool1d(x, 1).squeeze()
        x = F.relu(self.bn6(self.linear1(x)))
        x = self.dp1(x)
        x = self.linear2(x)
        return x

device = torch.device("cuda:0")            # torch.device("cuda") in main.py
model = PointNet().to(device)
model.eval()     # simulation: a fake-cuda BatchNorm cannot update running stats in train mode
criterion = cal_loss

# one ModelNet40 batch as the DataLoader yields it: float32 points, int64 (B, 1) labels from h5
data = torch.from_numpy(np.random.rand(16, 1024, 3).astype('float32'))
label = torch.from_numpy(np.random.randint(0, 40, (16, 1)).astype('int64'))
'''
CELL = '''
with torch.no_grad():
    data, label = data.to(device), label.to(device).squeeze()
    data = data.permute(0, 2, 1)
    logits = model(data)
    loss = criterion(logits, label)
    preds = logits.max(dim=1)[1]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
