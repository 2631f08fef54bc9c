"""Look-alike: `AveragedModel(..., multi_avg_fn=get_ema_multi_avg_fn(), use_buffers=True)` of an accelerator model keeps `n_averaged` on the CPU.

Source: https://github.com/pytorch/pytorch/blob/main/torch/optim/swa_utils.py
The EMA recipe from the torch.optim docs: the averaged copy is deep-copied from the model on the
accelerator, but its own `n_averaged` counter is registered with `device=None`, i.e. a CPU long
tensor; `update_parameters` compares it with 0 in Python and hands `self.n_averaged.to(device)`
to the multi-tensor function per device group. With `use_buffers=True` the int64
`num_batches_tracked` buffers go through the same update: `get_ema_multi_avg_fn` uses
`_foreach_lerp_` only for floating tensors and `p_ema.copy_(p_ema * decay + p_model * (1 - decay))`
(a casting copy) for the integer ones.
Uses PyTorch's own `AveragedModel`/`get_ema_multi_avg_fn`; "meta" plays the accelerator.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn

device = torch.device("meta")
model = nn.Sequential(
    nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 10),
).to(device)
ema_model = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.999), use_buffers=True)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
loss_fn = nn.CrossEntropyLoss()
'''
CELL = '''
for _ in range(3):
    input = torch.randn(8, 3, 32, 32, device=device)
    target = torch.randint(0, 10, (8,), device=device)
    optimizer.zero_grad()
    loss_fn(model(input), target).backward()
    optimizer.step()
    ema_model.update_parameters(model)
ema_model.eval()
preds = ema_model(torch.randn(2, 3, 32, 32, device=device))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
