"""ignite's `ConfusionMatrix` on a second GPU: `type_as` moves the accumulator to the *current* device, not to `y`'s.

Source: https://github.com/pytorch/ignite/issues/554
"`type_as` will not move Tensor to the same device": in `ConfusionMatrix.update`, the accumulator
was converted with `self.confusion_matrix = self.confusion_matrix.type_as(y_ohe_t)`. A CUDA type
string sends the tensor to the current CUDA device (cuda:0), so with `y` on `cuda:1` (users with
several GPUs picking `cuda:1`) the following `+= torch.matmul(...)` mixed cuda:0 and cuda:1. The
reporter proposed `.to(...)` instead of `type_as`; the maintainer reworked the metric's device
handling. Stand-in: ignite 0.2's `ConfusionMatrix.update` (reduced, one-hot by comparison), with
`type_as` spelled out as what it does (current device = cuda:0).
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
import torch.nn as nn

CURRENT_CUDA_DEVICE = 0            # torch.cuda.current_device() in the user's process

def type_as(t, other):
    """Tensor.type_as(other) == t.type(other.type()): a 'torch.cuda.*Tensor' type string goes
    to the *current* CUDA device, whatever device `other` is on."""
    if other.device.type == "cuda":
        return t.to(device=f"cuda:{CURRENT_CUDA_DEVICE}", dtype=other.dtype)
    return t.to(dtype=other.dtype)

def to_onehot(indices, num_classes):
    return (indices.unsqueeze(1) == torch.arange(num_classes, device=indices.device)).to(torch.uint8)

class ConfusionMatrix:
    def __init__(self, num_classes):
        self.num_classes = num_classes
        self.reset()

    def reset(self):
        self.confusion_matrix = torch.zeros(self.num_classes, self.num_classes, dtype=torch.float)

    def update(self, output):
        y_pred, y = output
        y_ohe_t = to_onehot(y.reshape(-1), self.num_classes).transpose(0, 1).float()
        y_pred_ohe = to_onehot(torch.argmax(y_pred, dim=1).reshape(-1), self.num_classes).float()
        if self.confusion_matrix.type() != y_ohe_t.type():
            self.confusion_matrix = type_as(self.confusion_matrix, y_ohe_t)
        self.confusion_matrix += torch.matmul(y_ohe_t, y_pred_ohe).float()

device = "cuda:1"                   # the user's friends picked the second GPU
model = nn.Linear(10, 4).to(device)
cm = ConfusionMatrix(num_classes=4)
x = torch.randn(16, 10).to(device)
y = torch.randint(0, 4, (16,)).to(device)
'''
CELL = '''
y_pred = model(x)
cm.update((y_pred, y))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["cm.confusion_matrix"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "self.confusion_matrix = type_as(self.confusion_matrix, y_ohe_t)",
    "self.confusion_matrix = self.confusion_matrix.to(y_ohe_t)",
)
CLEAN = False
