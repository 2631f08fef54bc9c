"""RootPainter3D trainer: `segment_3d` sends float64 tiles (from `rescale_intensity`) into the float32 3D U-Net.

Source: https://github.com/Abe404/RootPainter3D/issues/1
"Trainer fails because of dtype mismatch in call to cnn function ... Input data is uint16": segmenting
a (235, 235, 235) uint16 CT volume raised "Input type (torch.cuda.DoubleTensor) and weight type
(torch.cuda.FloatTensor) should be the same" at `outputs = cnn(tiles_for_gpu)` in
`model_utils.segment_3d`. Each tile is made float32 with `img_as_float32` but then passed through
`im_utils.normalize_tile`, whose skimage `rescale_intensity(tile, out_range=(0, 1))` returns
float64; the stacked tiles go to the GPU as a DoubleTensor. The repo later casts the tiles
(`.cuda().float()`). Stand-ins: the skimage helpers, a two-conv network for the 3D U-Net; device
is the CPU (dtype-only bug).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
from torch.nn.functional import softmax

def img_as_float32(image):                        # skimage.util.img_as_float32
    if image.dtype == np.uint16:
        return (image / 65535.0).astype(np.float32)
    return image.astype(np.float32)

def rescale_intensity(image, out_range=(0, 1)):  # skimage.exposure.rescale_intensity (0.18): float out_range -> float64
    imin, imax = float(np.min(image)), float(np.max(image))
    omin, omax = out_range
    image = np.clip(image, imin, imax).astype(float)
    return (image - imin) / (imax - imin) * (omax - omin) + omin

def normalize_tile(tile):                         # trainer/im_utils.py
    if np.min(tile) < np.max(tile):
        tile = rescale_intensity(tile, out_range=(0, 1))
    else:
        tile *= 0
    assert np.min(tile) >= 0, f"tile min {np.min(tile)}"
    assert np.max(tile) <= 1, f"tile max {np.max(tile)}"
    return tile

def get_coords_3d(image_shape, tile_shape):
    return [(x, y, z) for z in range(0, image_shape[0] - tile_shape[0] + 1, tile_shape[0])
            for y in range(0, image_shape[1] - tile_shape[1] + 1, tile_shape[1])
            for x in range(0, image_shape[2] - tile_shape[2] + 1, tile_shape[2])]

def segment_3d(cnn, image, batch_size, in_tile_shape, out_tile_shape):
    depth_diff = in_tile_shape[0] - out_tile_shape[0]
    width_diff = in_tile_shape[1] - out_tile_shape[1]
    out_im_shape = (image.shape[0] - depth_diff, image.shape[1] - width_diff, image.shape[2] - width_diff)
    coords = get_coords_3d(out_im_shape, out_tile_shape)
    seg = np.zeros(out_im_shape, dtype=np.int8)
    coord_idx = 0
    while coord_idx < len(coords):
        tiles_to_process = []
        coords_to_process = []
        for _ in range(batch_size):
            if coord_idx < len(coords):
                x_coord, y_coord, z_coord = coords[coord_idx]
                tile = image[z_coord:z_coord + in_tile_shape[0],
                             y_coord:y_coord + in_tile_shape[1],
                             x_coord:x_coord + in_tile_shape[2]]
                tile = np.expand_dims(tile, axis=0)
                tile = img_as_float32(tile)
                tile = normalize_tile(tile)
                coord_idx += 1
                tiles_to_process.append(tile)
                coords_to_process.append((x_coord, y_coord, z_coord))
        tiles_to_process = np.array(tiles_to_process)
        tiles_for_gpu = torch.from_numpy(tiles_to_process)
        tiles_for_gpu = tiles_for_gpu.to(device)          # .cuda()
        tile_predictions = cnn(tiles_for_gpu)
        tile_predictions = softmax(tile_predictions, 1)[:, 1, :]
        tile_predictions = (tile_predictions > 0.5).type(torch.int8)
        pred_np = tile_predictions.data.cpu().numpy()
        for tile, (x_coord, y_coord, z_coord) in zip(pred_np, coords_to_process):
            seg[z_coord:z_coord + tile.shape[0], y_coord:y_coord + tile.shape[1], x_coord:x_coord + tile.shape[2]] = tile
    return seg

class UNet3D(nn.Module):
    def __init__(self, im_channels=1, out_channels=2):
        super().__init__()
        self.net = nn.Sequential(nn.Conv3d(im_channels, 8, 3), nn.ReLU(), nn.Conv3d(8, out_channels, 3))

    def forward(self, x):
        return self.net(x)

device = torch.device("cpu")                       # the trainer's GPU
cnn = UNet3D(im_channels=1, out_channels=2).to(device)
cnn.eval()
in_tile_shape, out_tile_shape = (12, 20, 20), (8, 16, 16)
batch_size = 2
# the CT volume as loaded from the .nii.gz: uint16
image = np.random.default_rng(0).integers(0, 4000, (28, 36, 36)).astype(np.uint16)
'''
CELL = '''
with torch.no_grad():
    seg = segment_3d(cnn, image, batch_size, in_tile_shape, out_tile_shape)
'''
EXPECT_ERROR = ("Input type (double) and bias type (float) should be the same",
                "should be the same", "expected scalar type Double but found Float",
                "expected scalar type Float but found Double")
CULPRITS = ["tiles_for_gpu"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("tiles_for_gpu = tiles_for_gpu.to(device)          # .cuda()",
                  "tiles_for_gpu = tiles_for_gpu.to(device).float()  # .cuda().float()")
CLEAN = False
