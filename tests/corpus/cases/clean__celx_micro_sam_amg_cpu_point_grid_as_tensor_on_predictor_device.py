"""Look-alike: micro-sam's automatic mask generator keeps its point grid in numpy and builds the prompt tensors on the predictor's device.

Source: https://github.com/computational-cell-analytics/micro-sam/blob/master/micro_sam/instance_segmentation.py
The AMG (after segment-anything's) builds a float64 numpy point grid on the CPU, transforms it
and calls `torch.as_tensor(transformed_points, device=self._predictor.device)`, with labels from
`torch.ones(in_points.shape[0], dtype=torch.int, device=in_points.device)`, before
`predict_torch`; the prompt encoder casts the coordinates to float. The namespace holds a CPU
grid beside a SAM model on cuda:0: correct, no finding. Stand-in: a tiny SAM and the batch
processing of the AMG; the crop/NMS post-processing and copies back to numpy are left out.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class TinySam(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.image_encoder = nn.Conv2d(3, dim, 8, stride=8)
        self.register_buffer("gauss", torch.randn(2, dim // 2))
        self.point_embeddings = nn.Embedding(2, dim)
        self.mask_decoder = nn.Linear(dim, dim)

class Predictor:
    def __init__(self, model, device):
        self.model = model.to(device)
        self.device = device

    def set_image(self, image):
        x = torch.as_tensor(image, device=self.device).permute(2, 0, 1)[None].float() / 255.0
        self.features = self.model.image_encoder(x)

    def predict_torch(self, point_coords, point_labels):
        pe = (point_coords / 64.0).to(torch.float) @ self.model.gauss
        sparse = torch.cat([torch.sin(pe), torch.cos(pe)], -1) + self.model.point_embeddings(point_labels)
        query = self.model.mask_decoder(sparse).mean(1)
        return torch.einsum("bc,chw->bhw", query, self.features[0])

def build_point_grid(n_per_side):
    offset = 1 / (2 * n_per_side)
    side = np.linspace(offset, 1 - offset, n_per_side)
    return np.stack([np.tile(side[None, :], (n_per_side, 1)),
                     np.tile(side[:, None], (1, n_per_side))], axis=-1).reshape(-1, 2)

class AutomaticMaskGenerator:
    def __init__(self, predictor, points_per_side=8, points_per_batch=16):
        self._predictor = predictor
        self.point_grids = build_point_grid(points_per_side)
        self._points_per_batch = points_per_batch

    def _process_batch(self, points):
        in_points = torch.as_tensor(points, device=self._predictor.device)
        in_labels = torch.ones(in_points.shape[0], dtype=torch.int, device=in_points.device)
        return self._predictor.predict_torch(in_points[:, None, :], in_labels[:, None])

    def initialize(self, image):
        self._predictor.set_image(image)
        points = self.point_grids * np.array(image.shape[:2])[None, ::-1]
        self.logits = [self._process_batch(points[i:i + self._points_per_batch])
                       for i in range(0, len(points), self._points_per_batch)]

predictor = Predictor(TinySam(), torch.device("cuda:0"))
amg = AutomaticMaskGenerator(predictor)
image = (np.random.default_rng(0).random((64, 64, 3)) * 255).astype(np.uint8)
'''
CELL = '''
amg.initialize(image)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
