"""timm `validate.py`: bf16 autocast forward, float32 cross-entropy under autocast, int64 targets, float top-k accuracy.

Source: https://github.com/huggingface/pytorch-image-models/blob/main/validate.py
The validation loop runs `with amp_autocast(): output = model(input)` (bfloat16 activations) and
`loss = criterion(output, target)` inside the same context (autocast runs cross-entropy in float32),
then `acc1, acc5 = accuracy(output.detach(), target, topk=(1, 5))`, where `accuracy` compares int64
top-k indices with int64 targets and returns float percentages. Look-alike: bf16 logits, float32 loss,
int64 labels and float metrics mixed by design; runs on the CPU with `device_type='cpu'` autocast.
Stand-in: a small CNN in place of the timm model; `accuracy` as in timm.utils.metrics.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
from functools import partial
import torch
from torch import nn

def accuracy(output, target, topk=(1,)):
    maxk = min(max(topk), output.size()[1])
    batch_size = target.size(0)
    _, pred = output.topk(maxk, 1, True, True)
    pred = pred.t()
    correct = pred.eq(target.reshape(1, -1).expand_as(pred))
    return [correct[:min(k, maxk)].reshape(-1).float().sum(0) * 100. / batch_size for k in topk]

model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                      nn.Flatten(), nn.Linear(16, 10))
criterion = nn.CrossEntropyLoss()
device = torch.device("cpu")
amp_autocast = partial(torch.autocast, device_type=device.type, dtype=torch.bfloat16)
loader = [(torch.randn(8, 3, 32, 32), torch.randint(0, 10, (8,))) for _ in range(2)]
'''
CELL = '''
model.eval()
top1 = []
with torch.no_grad():
    for batch_idx, (input, target) in enumerate(loader):
        input, target = input.to(device), target.to(device)
        with amp_autocast():
            output = model(input)
            loss = criterion(output, target)
        acc1, acc5 = accuracy(output.detach(), target, topk=(1, 5))
        top1.append(acc1.item())
print(output.dtype, loss.dtype, sum(top1) / len(top1))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
