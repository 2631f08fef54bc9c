"""Look-alike: MONAI sliding-window inference with the volume and the stitched output on the CPU, windows run on the GPU.

Source: https://github.com/Project-MONAI/MONAI/pull/1222
For a CT volume too large for GPU memory (#1189) MONAI added `sw_device`: `sliding_window_inference(
inputs, roi_size, sw_batch_size, predictor, sw_device="cuda", device="cpu")` keeps `inputs` and the
aggregation buffers (`output_image`, `count_map`) on the CPU, copies each batch of windows to
`sw_device` for the cuda model, and brings every prediction back to `device` before adding it in.
Two devices on purpose; every op sees one. The inferer is reduced (no Gaussian weighting or
padding) and the 3D UNet is a small stand-in.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import itertools
import torch
from torch import nn

def sliding_window_inference(inputs, roi_size, sw_batch_size, predictor, sw_device=None, device=None):
    if sw_device is None:
        sw_device = inputs.device
    if device is None:
        device = inputs.device
    batch_size, _, *image_size = inputs.shape
    starts = [list(range(0, s - r + 1, r)) for s, r in zip(image_size, roi_size)]
    slices = [tuple(slice(st, st + r) for st, r in zip(start, roi_size))
              for start in itertools.product(*starts)]
    output_image, count_map = None, None
    for i in range(0, len(slices), sw_batch_size):
        batch_slices = slices[i:i + sw_batch_size]
        window_data = torch.cat([inputs[(slice(None), slice(None)) + s] for s in batch_slices]).to(sw_device)
        seg_prob = predictor(window_data).to(device)
        if output_image is None:
            output_shape = [batch_size, seg_prob.shape[1]] + list(image_size)
            output_image = torch.zeros(output_shape, dtype=torch.float32, device=device)
            count_map = torch.zeros(output_shape, dtype=torch.float32, device=device)
        for idx, s in enumerate(batch_slices):
            original_idx = (slice(None), slice(None)) + s
            output_image[original_idx] += seg_prob[idx:idx + 1]
            count_map[original_idx] += 1.0
    return output_image / count_map

model = nn.Sequential(nn.Conv3d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv3d(8, 2, 1)).to("cuda:0")
model.eval()
test_device = torch.device("cpu")
test_image = torch.rand(1, 1, 32, 32, 16)            # the large CT volume, kept in CPU memory
roi_size = (16, 16, 16)
'''
CELL = '''
val_outputs = sliding_window_inference(test_image, roi_size, 2, model, sw_device="cuda:0", device=test_device)
pred = val_outputs.argmax(dim=1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
