"""Look-alike: torchvision's `ExponentialMovingAverage` (an `AveragedModel` with `use_buffers=True`) averages BatchNorm's int64 counters.

Source: https://github.com/pytorch/vision/blob/main/references/classification/utils.py
The classification reference keeps an EMA of the model as a subclass of
`torch.optim.swa_utils.AveragedModel` with an `ema_avg` function and `use_buffers=True`, so every
buffer -- including BatchNorm's int64 `num_batches_tracked` -- goes through
`decay * avg + (1 - decay) * param`. The float result is written back with `copy_`, which casts,
and `n_averaged` is a long buffer reset with `fill_(0)` during warmup (train.py). Mixed
long/float arithmetic on purpose; nothing is divided or added in place into an integer tensor.
Uses PyTorch's own `AveragedModel`; the model is a small conv net instead of a torchvision one.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class ExponentialMovingAverage(torch.optim.swa_utils.AveragedModel):
    """Maintains moving averages of model parameters using an exponential decay.
    ``ema_avg = decay * avg_model_param + (1 - decay) * model_param``
    """

    def __init__(self, model, decay, device="cpu"):
        def ema_avg(avg_model_param, model_param, num_averaged):
            return decay * avg_model_param + (1 - decay) * model_param

        super().__init__(model, device, ema_avg, use_buffers=True)

model = nn.Sequential(
    nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 10),
)
device = torch.device("cpu")
model_ema_steps, epochs, batch_size, world_size, model_ema_decay = 32, 600, 128, 1, 0.99998
adjust = world_size * batch_size * model_ema_steps / epochs
alpha = 1.0 - model_ema_decay
alpha = min(1.0, alpha * adjust)
model_ema = ExponentialMovingAverage(model, device=device, decay=1.0 - alpha)
lr_warmup_epochs, epoch = 5, 0
model.train()
for i in range(3):
    model(torch.randn(8, 3, 32, 32))
'''
CELL = '''
for i in range(64):
    if i % model_ema_steps == 0:
        model_ema.update_parameters(model)
        if epoch < lr_warmup_epochs:
            # Reset ema buffer to keep copying weights during warmup period
            model_ema.n_averaged.fill_(0)
model_ema.update_parameters(model)
model_ema.update_parameters(model)
model_ema.eval()
out = model_ema(torch.randn(4, 3, 32, 32))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
