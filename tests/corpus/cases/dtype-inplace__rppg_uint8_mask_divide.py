"""An in-place `mask /= 255` on a uint8 landmark mask inside a dataset's preprocessing.

Source: https://github.com/eugenelet/Meta-rPPG/issues/26
Running the repository's train.py, the user hit "result type Float can't be cast to the desired
output type Byte" in `BaselineDataset.baseline_procress`: the masks are stored as uint8 (0 and
255) and the method divides them in place (`mask /= 255`) *before* its `mask = mask.float()`;
true division gives floats, which cannot be written back into a uint8 tensor. The data is as
intended; the order of the two lines is the bug (the thread's fix: cast first, then divide).
Stand-in: the dataset with in-memory frames and masks (no torch.load, no filtering).
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import numpy as np
import torch

class BaselineDataset():
    def __init__(self, win_size=4):
        self.win_size = win_size
        self.dataset = [torch.rand(20, 3, 8, 8)]
        self.maskset = [torch.from_numpy((np.random.rand(20, 3, 8, 8) > 0.5).astype(np.uint8) * 255)]

    def __getitem__(self, items):
        inputs, masks = [], []
        for i in range(items[1], items[1] + self.win_size):
            inputs.append(self.dataset[items[0]][i].clone())
            masks.append(self.maskset[items[0]][i].clone())
        inputs = torch.from_numpy(np.stack(inputs))
        masks = torch.from_numpy(np.stack(masks))
        return {'input': self.baseline_procress(inputs, masks.clone())}

    def baseline_procress(self, data, mask):
        mask /= 255
        mask = mask.float()
        input_mean = data.sum(dim=(0, 2, 3)) / mask.sum(dim=(0, 2, 3))
        for i in range(data.shape[1]):
            data[:, i, :, :] = data[:, i, :, :] - input_mean[i]
        return data * mask

dataset = BaselineDataset()
'''
CELL = '''
data = dataset[0, 0]
'''
EXPECT_ERROR = "result type Float can't be cast to the desired output type Byte"
CULPRITS = ["dataset"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "mask /= 255\n        mask = mask.float()",
    "mask = mask.float()\n        mask /= 255",
)
CLEAN = False
