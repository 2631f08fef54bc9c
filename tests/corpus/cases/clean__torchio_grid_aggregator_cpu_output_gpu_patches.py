"""Look-alike: TorchIO patch-based inference, patches run through a GPU model while the GridAggregator stitches them into a CPU volume.

Source: https://github.com/TorchIO-project/torchio/issues/256
"How to do inference using grid sampler": the TorchIO docs pattern the thread points to moves each
batch of patches to the GPU (`input_tensor = patches_batch['t1'][tio.DATA].to(device)`), keeps
`locations = patches_batch[tio.LOCATION]` on the CPU and calls `aggregator.add_batch(outputs,
locations)` with GPU outputs; `GridAggregator.add_batch` copies the batch to the CPU (`batch_tensor
.cpu()`) before writing it into its CPU output tensor. Two devices on purpose, each op sees one.
Stand-ins: GridSampler/GridAggregator reduced to what the loop uses (locations kept as the numpy
array they are built from), a small 3D network.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import itertools
import numpy as np
import torch
import torch.nn as nn

DATA, LOCATION, CHANNELS_DIMENSION = "data", "location", 1

class GridSampler:
    def __init__(self, subject, patch_size, patch_overlap=0):
        self.subject, self.patch_size = subject, patch_size
        shape = subject["t1"][DATA].shape[1:]
        starts = [range(0, s - p + 1, p) for s, p in zip(shape, patch_size)]
        self.locations = np.array([list(ini) + [i + p for i, p in zip(ini, patch_size)]
                                   for ini in itertools.product(*starts)], dtype=np.int64)

    def batches(self, batch_size):
        image = self.subject["t1"][DATA]
        for b in range(0, len(self.locations), batch_size):
            locs = self.locations[b:b + batch_size]
            patches = torch.stack([image[:, i0:i1, j0:j1, k0:k1] for i0, j0, k0, i1, j1, k1 in locs])
            yield {"t1": {DATA: patches}, LOCATION: locs}

class GridAggregator:
    def __init__(self, sampler, overlap_mode="crop"):
        self.spatial_shape = sampler.subject["t1"][DATA].shape[1:]
        self._output_tensor = None

    def add_batch(self, batch_tensor, locations):
        batch = batch_tensor.cpu()
        if self._output_tensor is None:
            self._output_tensor = torch.zeros(batch.shape[1], *self.spatial_shape, dtype=batch.dtype)
        for patch, location in zip(batch.unbind(0), locations):
            i_ini, j_ini, k_ini, i_fin, j_fin, k_fin = (int(v) for v in location)
            self._output_tensor[:, i_ini:i_fin, j_ini:j_fin, k_ini:k_fin] = patch

    def get_output_tensor(self):
        return self._output_tensor

device = torch.device("cuda:0")
model = nn.Sequential(nn.Conv3d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv3d(8, 2, 1)).to(device).eval()
subject = {"t1": {DATA: torch.rand(1, 32, 32, 16)}}          # tio.Subject(t1=tio.ScalarImage(...)), on the CPU
patch_size, patch_overlap = (16, 16, 16), 0
grid_sampler = GridSampler(subject, patch_size, patch_overlap)
aggregator = GridAggregator(grid_sampler)
'''
CELL = '''
with torch.no_grad():
    for patches_batch in grid_sampler.batches(batch_size=2):
        input_tensor = patches_batch["t1"][DATA].to(device)
        locations = patches_batch[LOCATION]
        logits = model(input_tensor)
        labels = logits.argmax(dim=CHANNELS_DIMENSION, keepdim=True)
        outputs = labels
        aggregator.add_batch(outputs, locations)
output_tensor = aggregator.get_output_tensor()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
