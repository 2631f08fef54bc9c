"""PyTorch Lightning (2019): a batch whose inputs are a tuple reaches `training_step` with the tuple still on the CPU.

Source: https://github.com/Lightning-AI/pytorch-lightning/issues/93
"When my X is a tuple input, the training_step method does not transfer them to cuda":
`x, y = batch` gave `input1, input2, input3` on the CPU and `y` on cuda, and `self.forward(*x)`
failed. The trainer's batch transfer of the time moved tensors and recursed into lists only; the
fix added tuples (and later dicts) to it. Stand-in: that transfer function and a three-input module.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

def transfer_data_to_gpu(data, gpu_id):
    # pytorch-lightning 0.4: tensors are moved, lists are walked, anything else is returned as is
    if isinstance(data, torch.Tensor):
        return data.to(torch.device('cuda', gpu_id))   # data.cuda(gpu_id)
    if isinstance(data, list):
        for i, x in enumerate(data):
            data[i] = transfer_data_to_gpu(x, gpu_id)
    return data

class ThreeInputModel(nn.Module):
    def __init__(self, dims=(6, 4, 3), num_classes=5):
        super().__init__()
        self.encoders = nn.ModuleList(nn.Linear(d, 16) for d in dims)
        self.head = nn.Linear(48, num_classes)

    def forward(self, input1, input2, input3):
        h = [enc(x) for enc, x in zip(self.encoders, (input1, input2, input3))]
        return self.head(torch.relu(torch.cat(h, dim=1)))

    def my_loss(self, y_hat, y):
        return F.cross_entropy(y_hat, y)

    def training_step(self, batch, batch_nb):
        x, y = batch
        y_hat = self.forward(*x)
        return {"loss": self.my_loss(y_hat, y)}

model = ThreeInputModel().to('cuda:0')
x = (torch.randn(8, 6), torch.randn(8, 4), torch.randn(8, 3))   # the dataset returns a tuple of inputs
y = torch.randint(0, 5, (8,))
batch = transfer_data_to_gpu([x, y], 0)                          # what the trainer hands to training_step
'''
CELL = '''
output = model.training_step(batch, 0)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["batch[0]"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "    if isinstance(data, list):",
    "    if isinstance(data, tuple):\n"
    "        return tuple(transfer_data_to_gpu(x, gpu_id) for x in data)\n"
    "    if isinstance(data, list):",
)
CLEAN = False
