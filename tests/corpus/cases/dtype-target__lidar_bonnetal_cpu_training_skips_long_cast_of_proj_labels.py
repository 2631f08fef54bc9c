"""lidar-bonnetal trainer: `proj_labels` are cast to long only inside the `if self.gpu:` branch.

Source: https://github.com/PRBonn/lidar-bonnetal/issues/100
Training the range-image segmentation network failed with "Expected object of scalar type Long but
got scalar type Int for argument #2 'target'" in the NLL loss. The SemanticKITTI parser returns
`proj_labels` as int32 (`torch.from_numpy(...astype(np.int32))`), and `Trainer.train_epoch` does
`proj_labels = proj_labels.cuda(non_blocking=True).long()` only when a GPU is used, so a CPU run
feeds int32 targets to `criterion(torch.log(output.clamp(min=1e-8)), proj_labels)`.
Stand-ins: the backbone+decoder+head reduced to one 1x1 convolution with a softmax.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class Segmentator(nn.Module):
    """Stand-in for lidar-bonnetal's Segmentator (backbone, decoder, head, softmax)."""
    def __init__(self, in_ch=5, nclasses=20):
        super().__init__()
        self.head = nn.Conv2d(in_ch, nclasses, 1)

    def forward(self, x, mask=None):
        return torch.softmax(self.head(x), dim=1)

nclasses = 20
gpu = False                      # torch.cuda.is_available() and the user trains on the CPU
model = Segmentator(5, nclasses)
loss_w = torch.ones(nclasses)
criterion = nn.NLLLoss(weight=loss_w)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)

# one batch from the parser: range image (5 channels), mask, labels as int32
rng = np.random.default_rng(0)
in_vol = torch.from_numpy(rng.standard_normal((2, 5, 64, 512)).astype(np.float32))
proj_mask = torch.from_numpy(np.ones((2, 64, 512), dtype=np.int32))
proj_labels = torch.from_numpy(rng.integers(0, nclasses, (2, 64, 512)).astype(np.int32))
'''
CELL = '''
if gpu:
    in_vol = in_vol.cuda()
    proj_mask = proj_mask.cuda()
    proj_labels = proj_labels.cuda(non_blocking=True).long()

output = model(in_vol, proj_mask)
loss = criterion(torch.log(output.clamp(min=1e-8)), proj_labels)
optimizer.zero_grad()
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = ("expected scalar type Long", "expected target dtype to be Long", "scalar type Long")
CULPRITS = ["proj_labels"]
FIX = "namespace"
REFERENCE_FIX = '''
proj_labels = proj_labels.long()
'''
REFERENCE_EDIT = None
CLEAN = False
