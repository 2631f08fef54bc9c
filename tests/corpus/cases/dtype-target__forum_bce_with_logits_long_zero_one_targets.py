"""BCEWithLogitsLoss on a Linear layer's logits with LongTensor 0/1 targets.

Source: https://github.com/pytorch/pytorch/issues/2272
"When trying to use the new BCEWithLogitsLoss ... my input of the loss (output of the model
forward pass) is a float, and the target is a long (1 or 0), which looks like appropriate types to
me." fmassa: "We currently don't support automatic type casting in pytorch" - the targets of
BCE-with-logits must be floating point like the logits (`target.float()`); today's PyTorch fails
with "result type Float can't be cast to the desired output type Long". Stand-in: a linear
classifier head, run on the CPU (the dtype check does not depend on the device).
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import torch
import torch.nn as nn

device = torch.device("cpu")     # cuda in the report; the dtype error is the same
model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 1)).to(device)
criterion = nn.BCEWithLogitsLoss()
inputs = torch.randn(16, 20, device=device)
target = torch.randint(0, 2, (16, 1), device=device)      # LongTensor of 0/1
'''
CELL = '''
output = model(inputs)
loss = criterion(output, target)
'''
EXPECT_ERROR = "result type Float can't be cast to the desired output type Long"
CULPRITS = ["target"]
FIX = "namespace"
REFERENCE_FIX = '''
target = target.float()
'''
REFERENCE_EDIT = None
CLEAN = False
