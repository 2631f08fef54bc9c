"""mmtracking ReID (mmcls `ClsDataPreprocessor`): the dataloader hands over uint8 CPU images, and the model's own data preprocessor moves them to its device, flips BGR to RGB and normalizes with its non-persistent `mean`/`std` buffers.

Source: https://github.com/open-mmlab/mmtracking (configs/reid/reid_r50_8xb32-6e_mot17train80_test-mot17val20.py:
`data_preprocessor=dict(type='mmcls.ClsDataPreprocessor', mean=[123.675, 116.28, 103.53], std=[58.395, 57.12, 57.375], to_rgb=True)`;
mmcls/models/utils/data_preprocessor.py `ClsDataPreprocessor.forward`, mmengine `BaseDataPreprocessor.collate_data`).
Looks like a bug twice over (uint8 CPU inputs given to a GPU ResNet, float buffers subtracted from a
uint8 batch), but `collate_data` moves the batch to the preprocessor's device, the buffers follow
`model.to()` although they are not saved, and `uint8 - float32` promotes to float32.
Stand-in: a linear backbone in place of ResNet-50; `meta` stands in for the GPU.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class ClsDataPreprocessor(nn.Module):
    def __init__(self, mean=None, std=None, pad_size_divisor=1, pad_value=0, to_rgb=False):
        super().__init__()
        self.to_rgb = to_rgb
        self.register_buffer("mean", torch.tensor(mean).view(-1, 1, 1), False)
        self.register_buffer("std", torch.tensor(std).view(-1, 1, 1), False)

    @property
    def device(self):
        return self.mean.device

    def collate_data(self, data):
        inputs = [d["inputs"].to(self.device) for d in data]
        data_samples = [d["data_sample"] for d in data]
        return inputs, data_samples

    def forward(self, data, training=False):
        inputs, batch_data_samples = self.collate_data(data)
        batch_inputs = torch.stack(inputs, dim=0)
        if self.to_rgb and batch_inputs.size(1) == 3:
            batch_inputs = batch_inputs[:, [2, 1, 0], ...]
        batch_inputs = (batch_inputs - self.mean) / self.std
        return batch_inputs, batch_data_samples

class BaseReID(nn.Module):
    def __init__(self, data_preprocessor, feat_dim=128):
        super().__init__()
        self.data_preprocessor = data_preprocessor
        self.backbone = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 16, feat_dim))

    def forward(self, inputs, data_samples=None, mode="tensor"):
        return self.backbone(inputs)

device = torch.device("meta")        # the runner's model.to(get_device())
model = BaseReID(ClsDataPreprocessor(mean=[123.675, 116.28, 103.53], std=[58.395, 57.12, 57.375],
                                     to_rgb=True)).to(device)
model.eval()
# what the MOT17 ReID test dataloader yields: per-sample dicts with HWC->CHW uint8 crops on the CPU
data_batch = [{"inputs": torch.randint(0, 256, (3, 32, 16), dtype=torch.uint8), "data_sample": {"gt_label": i}}
              for i in range(4)]
'''
CELL = '''
with torch.no_grad():
    inputs, data_samples = model.data_preprocessor(data_batch, False)
    feats = model(inputs, data_samples, mode="tensor")
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
