"""pytorch-3dunet on Windows: the label transform's `astype(dtype='long')` gives int32 targets for CrossEntropyLoss.

Source: https://github.com/wolny/pytorch-3dunet/issues/28
"Target tensor is not cast to 'dtype=long'": `transforms.ToTensor` does
`torch.from_numpy(m.astype(dtype=self.dtype))` with `dtype: long` from the yaml config, but on
Windows numpy's `long` is the 32-bit C long, so the label is int32; DiceLoss accepts it,
`CrossEntropyLoss` fails with "expected scalar type Long". Fix: cast the target to `torch.long`.
Stand-in: the ToTensor transform (with numpy's Windows "long" written as np.int32), a one-layer
3-D "UNet"; run on the CPU (a dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

NUMPY_LONG = np.int32   # what np.dtype("long") is on Windows (C long is 32-bit there)

class ToTensor:
    def __init__(self, expand_dims, dtype=NUMPY_LONG):
        self.expand_dims, self.dtype = expand_dims, dtype

    def __call__(self, m):
        if self.expand_dims and m.ndim == 3:
            m = np.expand_dims(m, axis=0)
        return torch.from_numpy(m.astype(dtype=self.dtype))

raw_transform = ToTensor(expand_dims=True, dtype=np.float32)
label_transform = ToTensor(expand_dims=False, dtype=NUMPY_LONG)

model = nn.Conv3d(1, 3, kernel_size=3, padding=1)   # final layer of the 3D UNet, 3 classes
criterion = nn.CrossEntropyLoss()
raw = np.random.rand(8, 16, 16).astype(np.float32)
label = np.random.randint(0, 3, (8, 16, 16)).astype(np.uint8)
input = raw_transform(raw).unsqueeze(0)              # (1, 1, D, H, W)
target = label_transform(label).unsqueeze(0)         # (1, D, H, W)
'''
CELL = '''
output = model(input)
loss = criterion(output, target)
'''
EXPECT_ERROR = ("expected scalar type Long", "expected target dtype to be Long", "Long")
CULPRITS = ["target"]
FIX = "namespace"
REFERENCE_FIX = '''
target = target.long()
'''
REFERENCE_EDIT = None
CLEAN = False
