"""Look-alike: SAM's prompt encoder receives float64 point coordinates (from numpy) and casts them to float32 itself.

Source: https://github.com/facebookresearch/segment-anything/blob/main/segment_anything/modeling/prompt_encoder.py
`PositionEmbeddingRandom.forward_with_coords` clones the coordinates, normalises them by the image
size and calls `self._pe_encoding(coords.to(torch.float))`, so point grids built with numpy in
float64 (as micro-sam's and SAM's automatic mask generators do) meet the float32 Gaussian matrix
as float32. The namespace holds float64 points beside a float32 encoder by design: correct, no
finding. Stand-in: PositionEmbeddingRandom as in the file and a point grid; CPU, dtype only.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class PositionEmbeddingRandom(nn.Module):
    def __init__(self, num_pos_feats=64, scale=None):
        super().__init__()
        if scale is None or scale <= 0.0:
            scale = 1.0
        self.register_buffer("positional_encoding_gaussian_matrix", scale * torch.randn((2, num_pos_feats)))

    def _pe_encoding(self, coords):
        coords = 2 * coords - 1
        coords = coords @ self.positional_encoding_gaussian_matrix
        coords = 2 * np.pi * coords
        return torch.cat([torch.sin(coords), torch.cos(coords)], dim=-1)

    def forward_with_coords(self, coords_input, image_size):
        coords = coords_input.clone()
        coords[:, :, 0] = coords[:, :, 0] / image_size[1]
        coords[:, :, 1] = coords[:, :, 1] / image_size[0]
        return self._pe_encoding(coords.to(torch.float))

def build_point_grid(n_per_side):
    offset = 1 / (2 * n_per_side)
    points_one_side = np.linspace(offset, 1 - offset, n_per_side)
    points_x = np.tile(points_one_side[None, :], (n_per_side, 1))
    points_y = np.tile(points_one_side[:, None], (1, n_per_side))
    return np.stack([points_x, points_y], axis=-1).reshape(-1, 2)

pe_layer = PositionEmbeddingRandom(64)
image_size = (1024, 1024)
points = build_point_grid(16) * np.array(image_size)[None, ::-1]    # float64
in_points = torch.as_tensor(points)[:, None, :] + 0.5                 # float64 tensor
'''
CELL = '''
point_embedding = pe_layer.forward_with_coords(in_points, image_size)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
