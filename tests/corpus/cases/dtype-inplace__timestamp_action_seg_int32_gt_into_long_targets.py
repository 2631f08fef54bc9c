"""Timestamp-supervised action segmentation on Windows: int32 ground truth assigned into the int64 target tensor.

Source: https://github.com/ZheLi2020/TimestampActionSeg/issues/6
"RuntimeError: Index put requires the source and destination dtypes match, got Long for the
destination and Int for the source." `BatchGenerator.get_single_random` builds
`boundary_target_tensor = torch.ones(..., dtype=torch.long) * (-100)` and fills the annotated frames
with `boundary_target_tensor[b, frame_idx_tensor] = gt_tensor[frame_idx_tensor]`, where
`gt_tensor = torch.from_numpy(gt.astype(int))`: NumPy's `int` is int32 on Windows, and an indexed
assignment does not cast. Stand-in: the repository's `BatchGenerator` reduced to the ground truth,
the timestamp annotations and `get_single_random`; `astype(int)` written `astype(np.int32)` to get
Windows' result on any platform.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import random
import numpy as np
import torch

class BatchGenerator(object):
    def __init__(self, num_classes, gt, random_index):
        self.list_of_examples = list(gt)
        self.index = 0
        self.num_classes = num_classes
        self.gt = gt
        self.random_index = random_index

    def next_batch(self, batch_size):
        batch = self.list_of_examples[self.index:self.index + batch_size]
        self.index += batch_size
        return batch

    def get_single_random(self, batch_size, max_frames):
        # Generate target for only timestamps. Do not generate pseudo labels at first 30 epochs.
        batch = self.list_of_examples[self.index - batch_size:self.index]
        boundary_target_tensor = torch.ones(len(batch), max_frames, dtype=torch.long) * (-100)
        for b, vid in enumerate(batch):
            single_frame = self.random_index[vid]
            gt = self.gt[vid]
            frame_idx_tensor = torch.from_numpy(np.array(single_frame))
            gt_tensor = torch.from_numpy(gt.astype(np.int32))   # gt.astype(int): int32 on Windows
            boundary_target_tensor[b, frame_idx_tensor] = gt_tensor[frame_idx_tensor]
        return boundary_target_tensor

num_classes, batch_size = 11, 2
gt = {f"S{i}_Cheese_C1.txt": np.sort(np.random.randint(0, num_classes, 120)).astype(float) for i in range(4)}
random_index = {vid: sorted(random.sample(range(120), 6)) for vid in gt}
batch_gen = BatchGenerator(num_classes, gt, random_index)
batch = batch_gen.next_batch(batch_size)
max_frames = 120
'''
CELL = '''
batch_boundary = batch_gen.get_single_random(batch_size, max_frames)
'''
EXPECT_ERROR = "Index put requires the source and destination dtypes match"
CULPRITS = ["gt_tensor"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "gt_tensor = torch.from_numpy(gt.astype(np.int32))",
    "gt_tensor = torch.from_numpy(gt.astype(np.int64))",
)
CLEAN = False
