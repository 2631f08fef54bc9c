"""NNI SPOS supernet: the label-smoothing criterion is never moved to the GPU, and builds its one-hot targets with `zeros_like`.

Source: https://github.com/microsoft/nni/blob/master/examples/nas/legacy/oneshot/spos/utils.py
In NNI's Single Path One-Shot example (`supernet.py`), the supernet is moved with `model.cuda()`
and `criterion = CrossEntropyLabelSmooth(1000, args.label_smoothing)` is built afterwards and never
moved. The criterion has no parameters or buffers, and its `forward` creates the smoothed targets
inside the loss with `torch.zeros_like(log_probs).scatter_(1, targets.unsqueeze(1), 1)`, so they
follow the logits' device. Look-alike: a loss module left on the CPU and a tensor created inside
`forward`, both correct.
Stand-ins: `CrossEntropyLabelSmooth` and the example's top-k `accuracy` (without `.item()`: no value
can be read back from the simulated GPU); a small CNN for the ShuffleNetV2 supernet; 10 classes
instead of 1000; `cuda:0` for `.cuda()`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class CrossEntropyLabelSmooth(nn.Module):
    def __init__(self, num_classes, epsilon):
        super(CrossEntropyLabelSmooth, self).__init__()
        self.num_classes = num_classes
        self.epsilon = epsilon
        self.logsoftmax = nn.LogSoftmax(dim=1)

    def forward(self, inputs, targets):
        log_probs = self.logsoftmax(inputs)
        targets = torch.zeros_like(log_probs).scatter_(1, targets.unsqueeze(1), 1)
        targets = (1 - self.epsilon) * targets + self.epsilon / self.num_classes
        loss = (-targets * log_probs).mean(0).sum()
        return loss

def accuracy(output, target, topk=(1, 5)):
    maxk = max(topk)
    batch_size = target.size(0)
    _, pred = output.topk(maxk, 1, True, True)
    pred = pred.t()
    if target.ndimension() > 1:
        target = target.max(1)[1]
    correct = pred.eq(target.view(1, -1).expand_as(pred))
    res = dict()
    for k in topk:
        correct_k = correct[:k].reshape(-1).float().sum(0)
        res["acc{}".format(k)] = correct_k.mul_(1.0 / batch_size)
    return res

class SmallSupernet(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU())
        self.block = nn.Sequential(nn.Conv2d(16, 32, 3, 2, 1), nn.ReLU())
        self.classifier = nn.Linear(32, n_classes)
    def forward(self, x):
        return self.classifier(self.block(self.stem(x)).mean((2, 3)))

model = SmallSupernet(10)
model.to("cuda:0")
criterion = CrossEntropyLabelSmooth(10, 0.1)
x = torch.randn(16, 3, 32, 32).to("cuda:0")
y = torch.randint(0, 10, (16,)).to("cuda:0")
'''
CELL = '''
model.eval()
with torch.no_grad():
    logits = model(x)
    loss = criterion(logits, y)
    metrics = accuracy(logits, y)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
