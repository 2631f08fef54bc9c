"""online-label-smoothing-pt: `OnlineLabelSmoothing` criterion left on the CPU while the classifier and batch are on the GPU.

Source: https://github.com/ankandrew/online-label-smoothing-pt/issues/2
The user plugged `OnlineLabelSmoothing(alpha=..., n_classes=..., smoothing=...)` in as the criterion of a
GPU training/validation loop and got "Expected all tensors to be on the same device ... cpu". The
loss keeps its soft-label matrix `supervise` (and `update`, `idx_count`) as registered buffers, so it
is a module that must itself be moved; the author's answer: `criterion = OnlineLabelSmoothing(...).cuda()`.
Stand-in: the library's OnlineLabelSmoothing (buffers, soft/hard loss) and a small classifier, in eval mode.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class OnlineLabelSmoothing(nn.Module):
    def __init__(self, alpha, n_classes, smoothing=0.1):
        super().__init__()
        self.a = alpha
        self.n_classes = n_classes
        self.register_buffer("supervise", torch.zeros(n_classes, n_classes))
        self.supervise.fill_(smoothing / (n_classes - 1))
        self.supervise.fill_diagonal_(1 - smoothing)
        self.register_buffer("update", torch.zeros_like(self.supervise))
        self.register_buffer("idx_count", torch.zeros(n_classes))
        self.hard_loss = nn.CrossEntropyLoss()

    def forward(self, y_h, y):
        soft_loss = self.soft_loss(y_h, y)
        hard_loss = self.hard_loss(y_h, y)
        return self.a * hard_loss + (1 - self.a) * soft_loss

    def soft_loss(self, y_h, y):
        y_h = y_h.log_softmax(dim=-1)
        true_dist = torch.index_select(self.supervise, 1, y).swapaxes(-1, -2)
        return torch.mean(torch.sum(-true_dist * y_h, dim=-1))

device = torch.device("cuda:0")
k = 4    # number of classes
b = 32   # batch size
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, k)).to(device)
criterion = OnlineLabelSmoothing(alpha=0.5, n_classes=k, smoothing=0.1)
model.eval()
criterion.eval()
x = torch.randn(b, 16, device=device)
y = torch.randint(0, k, (b,), device=device)
'''
CELL = '''
with torch.no_grad():
    y_h = model(x)
    val_loss = criterion(y_h, y)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["criterion"]
FIX = "namespace"
REFERENCE_FIX = '''
criterion = criterion.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
