"""L5Kit planning notebook: a single frame is collated with default_collate and fed to the GPU model as is.

Source: https://github.com/woven-by-toyota/l5kit/pull/346
"Test & fix L5Kit notebooks": in `examples/planning/open_loop_test.ipynb` the loop did
`data = eval_dataloader.dataset[frame_number]; data_batch = default_collate([data])` and called the
model (on `device`) with it, but the output of `default_collate` is a dict of CPU tensors. The fix
sends the batch to the device: `data_batch = {k: v.to(device) for k, v in data_batch.items()}`.
Stand-in: RasterizedPlanningModel reduced (small CNN backbone) and one frame of numpy arrays.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import numpy as np
import torch
from torch import nn
from torch.utils.data.dataloader import default_collate

device = torch.device("cuda:0")

class RasterizedPlanningModel(nn.Module):
    """l5kit.planning.rasterized.model.RasterizedPlanningModel (backbone reduced)."""
    def __init__(self, num_input_channels=5, num_targets=3 * 12):
        super().__init__()
        self.num_targets = num_targets
        self.model = nn.Sequential(
            nn.Conv2d(num_input_channels, 16, 3, stride=2, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, num_targets))

    def forward(self, data_batch):
        image_batch = data_batch["image"]
        outputs = self.model(image_batch)
        batch_size = len(data_batch["image"])
        predicted = outputs.view(batch_size, -1, 3)
        pred_positions = predicted.narrow(2, 0, 2)
        pred_yaws = predicted.narrow(2, 2, 1)
        return {"positions": pred_positions, "yaws": pred_yaws}

model = RasterizedPlanningModel().to(device)
model.eval()

# one frame of eval_dataloader.dataset: a dict of numpy arrays
data = {
    "image": np.random.rand(5, 32, 32).astype(np.float32),
    "target_positions": np.zeros((12, 2), dtype=np.float32),
    "target_yaws": np.zeros((12, 1), dtype=np.float32),
    "target_availabilities": np.ones(12, dtype=np.float32),
}
data_batch = default_collate([data])
'''
CELL = '''
result = model(data_batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["data_batch"]
FIX = "namespace"
REFERENCE_FIX = '''
data_batch = {k: v.to(device) for k, v in data_batch.items()}
'''
REFERENCE_EDIT = None
CLEAN = False
