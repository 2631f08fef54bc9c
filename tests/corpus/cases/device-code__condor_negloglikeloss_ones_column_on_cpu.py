"""CONDOR ordinal regression: `condor_negloglikeloss` builds its leading column of ones on the default device.

Source: https://github.com/GarrettJenkinson/condor_pytorch/pull/2
"Set the device inside of condor_negloglikeloss": the loss starts with
`piLab = torch.cat([torch.ones((labels.shape[0],1)), labels[:,:-1]], dim=1)`, a `torch.ones` made
without a device, so with the model, logits and level labels on the GPU the concatenation fails.
The PR creates it (and the zeros) on the input's device. Stand-ins: the loss as in condor_pytorch
(`labels[:, :-1]` written with `narrow`, which the simulator can do on fake GPUs),
`levels_from_labelbatch`, and a small MLP with a CONDOR output layer.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

def levels_from_labelbatch(labels, num_classes):
    """condor_pytorch.dataset.levels_from_labelbatch: ordinal label -> extended binary vector."""
    levels = [[1.0] * int(label) + [0.0] * (num_classes - 1 - int(label)) for label in labels]
    return torch.tensor(levels, dtype=torch.float32)

def condor_negloglikeloss(logits, labels, reduction='mean'):
    if not logits.shape == labels.shape:
        raise ValueError("Please ensure that logits (%s) has the same shape as labels (%s). "
                         % (logits.shape, labels.shape))
    piLab = torch.cat([torch.ones((labels.shape[0], 1)), labels.narrow(1, 0, labels.shape[1] - 1)], dim=1)

    zeros = torch.zeros_like(logits, dtype=logits.dtype)
    cond = (logits >= zeros)
    cond2 = (piLab > zeros)
    relu_logits = torch.where(cond, logits, zeros)
    neg_abs_logits = torch.where(cond, -logits, logits)
    temp = relu_logits - (logits * labels) + torch.log1p(torch.exp(neg_abs_logits))
    val = torch.sum(torch.where(cond2, temp, zeros), dim=1)

    if reduction == 'mean':
        loss = torch.mean(val)
    elif reduction == 'sum':
        loss = torch.sum(val)
    elif reduction is None:
        loss = val
    return loss

NUM_CLASSES = 5

class CondorMLP(nn.Module):
    def __init__(self, in_features=10, num_classes=NUM_CLASSES):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(in_features, 32), nn.ReLU())
        self.output_layer = nn.Linear(32, num_classes - 1)

    def forward(self, x):
        return self.output_layer(self.features(x))

DEVICE = torch.device("cuda:0")
model = CondorMLP().to(DEVICE)
features = torch.randn(8, 10).to(DEVICE)
class_labels = [0, 1, 4, 2, 3, 1, 0, 2]
levels = levels_from_labelbatch(class_labels, num_classes=NUM_CLASSES).to(DEVICE)
'''
CELL = '''
logits = model(features)
loss = condor_negloglikeloss(logits, levels)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["condor_negloglikeloss"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("torch.ones((labels.shape[0], 1))", "torch.ones((labels.shape[0], 1), device=labels.device)")
CLEAN = False
