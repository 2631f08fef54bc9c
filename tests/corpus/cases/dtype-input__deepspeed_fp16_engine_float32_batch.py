"""DeepSpeed with `fp16` enabled: the engine's module is half, the training loop feeds float32 batches.

Source: https://github.com/deepspeedai/DeepSpeed/issues/550
"Scalar Type Error when enable FP16 (`RuntimeError: Expected object of scalar type Half...`)".
Maintainer: "The problem is that inputs and labels are torch.float32 instead of torch.half since you
are doing mixed-precision training ... x = batch[0].to(model_engine.local_rank, dtype=torch.half)".
Stand-in: `deepspeed.initialize` reduced to an engine that converts its module to half (fp16 /
ZeRO), and the user's regression loop with float32 tensors; run on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(10, 32)
        self.fc2 = nn.Linear(32, 1)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))

class DeepSpeedEngine(nn.Module):
    def __init__(self, model, config):
        super().__init__()
        self.module = model.half() if config["fp16"]["enabled"] else model
        self.local_rank = 0

    def forward(self, *inputs):
        return self.module(*inputs)

ds_config = {"train_batch_size": 16, "fp16": {"enabled": True}, "zero_optimization": {"stage": 1}}
model_engine = DeepSpeedEngine(Net(), ds_config)       # deepspeed.initialize(args, model, ...)

x_train = torch.randn(64, 10)
y_train = torch.randn(64, 1)
batch = (x_train[:16], y_train[:16])
x = batch[0]
y = batch[1]
'''
CELL = '''
output = model_engine(x)
loss = nn.functional.mse_loss(output, y)
'''
EXPECT_ERROR = ("must have the same dtype", "to have the same dtype", "expected scalar type")
CULPRITS = ["x"]
FIX = "namespace"
REFERENCE_FIX = '''
x = x.half()
y = y.half()
'''
REFERENCE_EDIT = None
CLEAN = False
