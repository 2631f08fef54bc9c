"""Look-alike: SamPredictor on a GPU with the image and click prompts kept as numpy arrays on the CPU.

Source: https://github.com/facebookresearch/segment-anything/blob/main/segment_anything/predictor.py
The predictor (used by micro-sam and the napari SAM plugins for microscopy) takes a numpy image
and numpy point prompts; `set_image` converts the image with `torch.as_tensor(input_image,
device=self.device)`, the normalisation constants `pixel_mean`/`pixel_std` are buffers that
followed `sam.to(device)`, and the prompts are converted with `device=self.device` before
`predict_torch`. The namespace holds CPU arrays beside a model on cuda:0: correct, no finding.
Stand-in: a tiny Sam (patch-embedding encoder, point prompt encoder, mask decoder) and the
predictor's conversion code; the final `.cpu().numpy()` of `predict` is left out (fake cuda
cannot copy back).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class Sam(nn.Module):
    def __init__(self, dim=16, img_size=64):
        super().__init__()
        self.img_size = img_size
        self.image_encoder = nn.Conv2d(3, dim, 8, stride=8)
        self.register_buffer("pixel_mean", torch.tensor([123.675, 116.28, 103.53]).view(-1, 1, 1), False)
        self.register_buffer("pixel_std", torch.tensor([58.395, 57.12, 57.375]).view(-1, 1, 1), False)
        self.register_buffer("positional_encoding_gaussian_matrix", torch.randn(2, dim // 2))
        self.point_embeddings = nn.Embedding(2, dim)
        self.mask_decoder = nn.Linear(dim, dim)

    @property
    def device(self):
        return self.pixel_mean.device

    def preprocess(self, x):
        return (x - self.pixel_mean) / self.pixel_std

    def encode_points(self, coords, labels):
        coords = (coords / self.img_size) * 2 - 1
        pe = coords.to(torch.float) @ self.positional_encoding_gaussian_matrix
        pe = torch.cat([torch.sin(pe), torch.cos(pe)], dim=-1)
        return pe + self.point_embeddings(labels)

class SamPredictor:
    def __init__(self, sam_model):
        self.model = sam_model

    @property
    def device(self):
        return self.model.device

    def set_image(self, image):
        input_image_torch = torch.as_tensor(image, device=self.device)
        input_image_torch = input_image_torch.permute(2, 0, 1).contiguous()[None, :, :, :]
        self.features = self.model.image_encoder(self.model.preprocess(input_image_torch.float()))

    def predict_torch(self, point_coords, point_labels):
        sparse = self.model.encode_points(point_coords, point_labels)
        query = self.model.mask_decoder(sparse).mean(1)
        return torch.einsum("bc,chw->bhw", query, self.features[0]) > 0

sam = Sam()
sam.to(device="cuda:0")
predictor = SamPredictor(sam)
image = (np.random.default_rng(0).random((64, 64, 3)) * 255).astype(np.uint8)   # a microscopy RGB crop
input_point = np.array([[30, 20], [40, 44]])
input_label = np.array([1, 0])
'''
CELL = '''
predictor.set_image(image)
coords_torch = torch.as_tensor(input_point, dtype=torch.float, device=predictor.device)[None, :, :]
labels_torch = torch.as_tensor(input_label, dtype=torch.int, device=predictor.device)[None, :]
masks = predictor.predict_torch(coords_torch, labels_torch)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
