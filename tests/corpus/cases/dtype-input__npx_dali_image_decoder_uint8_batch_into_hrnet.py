"""HigherHRNet trained from a DALI pipeline: the decoded images reach the model as uint8.

Source: https://github.com/NVIDIA/DALI/issues/2460
The user replaced the loader of pytorch-pose-HigherHRNet with a DALI pipeline built on
`ops.ImageDecoder`; `outputs = model(images)` in `do_train` failed with "Input type
(torch.cuda.ByteTensor) and weight type (torch.cuda.FloatTensor) should be the same". As they
suspected, the decoder returns the raw 0-255 pixels as uint8; the images must be converted to float
(and scaled/normalised, which DALI's CropMirrorNormalize with a FLOAT output does) before the model.
Stand-ins: a pipeline iterator yielding decoded uint8 NCHW batches and a two-conv pose net; CPU only
(the dtype mismatch is the bug).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn

class DALIGenericIterator:
    """Stand-in: yields [{'images': uint8 NCHW, 'labels': ...}] like DALI's PyTorch plugin."""
    def __init__(self, n_batches=2, batch_size=2, size=64):
        self.n_batches, self.batch_size, self.size = n_batches, batch_size, size

    def __iter__(self):
        for _ in range(self.n_batches):
            decoded = np.random.randint(0, 256, (self.batch_size, self.size, self.size, 3), dtype=np.uint8)
            images = torch.from_numpy(decoded).permute(0, 3, 1, 2).contiguous()
            yield [{"images": images, "labels": torch.zeros(self.batch_size, dtype=torch.long)}]

class PoseHigherResolutionNet(nn.Module):
    def __init__(self, num_joints=17):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), nn.ReLU())
        self.final_layer = nn.Conv2d(32, num_joints, 1)

    def forward(self, x):
        return self.final_layer(self.stem(x))

model = PoseHigherResolutionNet()
train_loader = DALIGenericIterator()
data = next(iter(train_loader))
images = data[0]["images"]
'''
CELL = '''
outputs = model(images)
'''
EXPECT_ERROR = ("Input type", "should be the same")
CULPRITS = ["images"]
FIX = "namespace"
REFERENCE_FIX = '''
images = images.float() / 255.0
'''
REFERENCE_EDIT = None
CLEAN = False
