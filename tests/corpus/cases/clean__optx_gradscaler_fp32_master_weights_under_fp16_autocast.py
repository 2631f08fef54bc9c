"""Look-alike: GradScaler with float16 autocast on a float32 model: half activations, float32 gradients, unscale, clip, step.

Source: https://github.com/pytorch/pytorch/issues/74739
"Why does GradScaler.unscale_ only support float32 gradients?" -- answered in the thread: fp16
gradients only come from fp16 weights; with autocast the weights (the ones the optimizer owns)
stay float32, the matmuls run in float16, and the scaled loss back-propagates into float32 `.grad`,
which `unscale_` accepts. Half outputs next to float32 parameters and a float32 scale tensor are the
intended AMP recipe. Run on the CPU (`torch.amp.GradScaler("cpu")`, CPU autocast in float16).
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 4))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
scaler = torch.amp.GradScaler("cpu")
criterion = nn.CrossEntropyLoss()
x = torch.randn(16, 32)
y = torch.randint(0, 4, (16,))
'''
CELL = '''
optimizer.zero_grad()
with torch.autocast(device_type="cpu", dtype=torch.float16):
    out = model(x)
    loss = criterion(out, y)
scaler.scale(loss).backward()
scaler.unscale_(optimizer)
torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
scaler.step(optimizer)
scaler.update()
print(out.dtype, model[0].weight.grad.dtype, loss.item())
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
