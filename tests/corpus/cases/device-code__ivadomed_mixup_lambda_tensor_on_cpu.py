"""ivadomed's mix-up builds its mixing coefficient as a CPU tensor and multiplies GPU batches by it.

Source: https://github.com/ivadomed/ivadomed/issues/1062
Training on a GPU with `"mixup_alpha": 1.0` stopped with "Expected all tensors to be on the same
device, ... cuda:0 and cpu": in `ivadomed/mixup.py`, `lambda_tensor = torch.FloatTensor([lambda_])`
is a one-element CPU tensor (not a 0-dim scalar), and `data * lambda_tensor` mixes it with the GPU
batch. The fix (PR 1063) puts `lambda_tensor` on `data`'s device. Simulated with meta as the
accelerator (its message: "Tensor on device cpu is not on the expected device meta!"); the
segmentation net is a two-conv stand-in, `mixup` is ivadomed's function.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

def mixup(data, targets, alpha, debugging=False, ofolder=None):
    indices = torch.randperm(data.size(0))
    data2 = data[indices]
    targets2 = targets[indices]

    lambda_ = np.random.beta(alpha, alpha)
    lambda_ = max(lambda_, 1 - lambda_)  # ensure lambda_ >= 0.5
    lambda_tensor = torch.FloatTensor([lambda_])

    data = data * lambda_tensor + data2 * (1 - lambda_tensor)
    targets = targets * lambda_tensor + targets2 * (1 - lambda_tensor)
    return data, targets

class TinyUnet(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Conv2d(1, 8, 3, padding=1)
        self.dec = nn.Conv2d(8, 1, 3, padding=1)

    def forward(self, x):
        return torch.sigmoid(self.dec(torch.relu(self.enc(x))))

device = torch.device("meta")           # stands in for cuda:0
model = TinyUnet().to(device)
training_params = {"mixup_alpha": 1.0}
input_samples = torch.randn(4, 1, 16, 16).to(device)
gt_samples = (torch.rand(4, 1, 16, 16) > 0.5).float().to(device)
'''
CELL = '''
if training_params["mixup_alpha"]:
    input_samples, gt_samples = mixup(input_samples, gt_samples, training_params["mixup_alpha"])
preds = model(input_samples)
'''
EXPECT_ERROR = "is not on the expected device"
CULPRITS = ["mixup"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "lambda_tensor = torch.FloatTensor([lambda_])",
    "lambda_tensor = torch.FloatTensor([lambda_]).to(data.device)",
)
CLEAN = False
