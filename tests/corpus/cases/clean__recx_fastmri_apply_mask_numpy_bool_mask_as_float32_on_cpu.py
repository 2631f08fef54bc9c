"""fastMRI data transform: complex64 k-space from h5 turned into float32 real/imag channels, a numpy boolean mask cast to float32, masked on the CPU.

Source: https://github.com/facebookresearch/fastMRI/blob/main/fastmri/data/subsample.py
`MaskFunc` draws the Cartesian mask with numpy (`center_mask | accel_mask`, booleans), reshapes it to
`(1, 1, W, 1)` and returns `torch.from_numpy(...).to(torch.float32)`; `transforms.apply_mask` then
computes `masked_data = data * mask + 0.0` on the `to_tensor(kspace)` output (complex64 numpy stacked
into a float32 last dim of 2). Look-alike: numpy data of several dtypes (complex64, bool, float64
probabilities) meeting torch on the CPU, all cast on purpose. Stand-in: RandomMaskFunc reduced to a
single acceleration.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch

def to_tensor(data):
    if np.iscomplexobj(data):
        data = np.stack((data.real, data.imag), axis=-1)
    return torch.from_numpy(data)

class RandomMaskFunc:
    def __init__(self, center_fractions, accelerations, seed=None):
        self.center_fractions = center_fractions
        self.accelerations = accelerations
        self.rng = np.random.RandomState(seed)

    def __call__(self, shape, offset=None, seed=None):
        num_cols = shape[-2]
        center_fraction, acceleration = self.center_fractions[0], self.accelerations[0]
        num_low = int(round(num_cols * center_fraction))
        center_mask = np.zeros(num_cols, dtype=bool)
        pad = (num_cols - num_low + 1) // 2
        center_mask[pad:pad + num_low] = True
        prob = (num_cols / acceleration - num_low) / (num_cols - num_low)       # float64
        accel_mask = self.rng.uniform(size=num_cols) < prob
        mask_shape = [1 for _ in shape]
        mask_shape[-2] = num_cols
        mask = torch.from_numpy((center_mask | accel_mask).reshape(*mask_shape).astype(np.float32))
        return mask, num_low

def apply_mask(data, mask_func, offset=None, seed=None, padding=None):
    shape = (1,) * len(data.shape[:-3]) + tuple(data.shape[-3:])
    mask, num_low_frequencies = mask_func(shape, offset, seed)
    masked_data = data * mask + 0.0
    return masked_data, mask, num_low_frequencies

kspace = (np.random.randn(15, 64, 48) + 1j * np.random.randn(15, 64, 48)).astype(np.complex64)
mask_func = RandomMaskFunc(center_fractions=[0.08], accelerations=[4], seed=42)
'''
CELL = '''
kspace_t = to_tensor(kspace)
masked_kspace, mask, num_low_frequencies = apply_mask(kspace_t, mask_func, seed=42)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
