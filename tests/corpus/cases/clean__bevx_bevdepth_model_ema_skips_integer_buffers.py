"""BEVDepth EMA callback: the EMA is a deepcopy of the model after `.cuda()`, and `update` blends only floating-point entries, so the `LongTensor` buffers (`voxel_num`, BN `num_batches_tracked`) are never touched in place.

Source: https://github.com/Megvii-BaseDetection/BEVDepth/blob/main/bevdepth/callbacks/ema.py
`EMACallback.on_fit_start` builds `ModelEMA(trainer.model.module.module.model.cuda(), 0.9990)`;
`ModelEMA.__init__` deep-copies that (already-on-GPU) model, and `update` runs, under `no_grad`,
`for k, v in self.ema.state_dict().items(): if v.dtype.is_floating_point: v *= d;
v += (1.0 - d) * msd[k].detach()`. The state dict holds int64 buffers (BaseLSSFPN's
`voxel_num = torch.LongTensor(...)`, every BatchNorm's `num_batches_tracked`) next to the float
weights; an in-place float blend into them would fail, and the dtype check skips them. Look-alike:
in-place updates over a mixed-dtype state dict, on one device by construction; it runs.
Stand-in: `ModelEMA` as in ema.py; the BEVDepth model reduced to a conv/BN depth net plus the
registered grid buffers; `.cuda()` is written `.to('cuda:0')`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
from copy import deepcopy

import torch
import torch.nn as nn


def is_parallel(model):
    """check if model is in parallel mode."""
    parallel_type = (
        nn.parallel.DataParallel,
        nn.parallel.DistributedDataParallel,
    )
    return isinstance(model, parallel_type)


class ModelEMA:
    def __init__(self, model, decay=0.9999, updates=0):
        # Create EMA(FP32)
        self.ema = deepcopy(
            model.module if is_parallel(model) else model).eval()
        self.updates = updates
        # decay exponential ramp (to help early epochs)
        self.decay = lambda x: decay * (1 - math.exp(-x / 2000))
        for p in self.ema.parameters():
            p.requires_grad_(False)

    def update(self, trainer, model):
        # Update EMA parameters
        with torch.no_grad():
            self.updates += 1
            d = self.decay(self.updates)

            msd = model.module.state_dict() if is_parallel(
                model) else model.state_dict()  # model state_dict
            for k, v in self.ema.state_dict().items():
                if v.dtype.is_floating_point:
                    v *= d
                    v += (1.0 - d) * msd[k].detach()


class BaseLSSFPN(nn.Module):
    """Stand-in: BEVDepth's backbone reduced to a depth net and its registered grid buffers."""
    def __init__(self, x_bound, y_bound, z_bound):
        super().__init__()
        self.register_buffer(
            'voxel_size', torch.Tensor([row[2] for row in [x_bound, y_bound, z_bound]]))
        self.register_buffer(
            'voxel_coord',
            torch.Tensor([row[0] + row[2] / 2.0 for row in [x_bound, y_bound, z_bound]]))
        self.register_buffer(
            'voxel_num',
            torch.LongTensor([(row[1] - row[0]) / row[2] for row in [x_bound, y_bound, z_bound]]))
        self.depth_net = nn.Sequential(nn.Conv2d(64, 64, 3, padding=1), nn.BatchNorm2d(64),
                                       nn.ReLU(inplace=True), nn.Conv2d(64, 112 + 80, 1))


class BaseBEVDepth(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = BaseLSSFPN([-51.2, 51.2, 0.8], [-51.2, 51.2, 0.8], [-5, 3, 8])
        self.head = nn.Sequential(nn.Conv2d(80, 64, 3, padding=1), nn.BatchNorm2d(64),
                                  nn.ReLU(inplace=True), nn.Conv2d(64, 10, 1))


model = BaseBEVDepth()
ema_model = ModelEMA(model.to('cuda:0'), 0.9990)     # ModelEMA(...model.cuda(), 0.9990)
ema_model.updates = 0                               # EMACallback: self.len_updates
'''
CELL = '''
# EMACallback.on_train_batch_end, after the optimizer step
ema_model.update(None, model)
ema_model.update(None, model)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
