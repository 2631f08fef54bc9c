"""Clay embeddings pipeline: each batch's embeddings are moved to the CPU before they are stacked.

Source: https://github.com/Clay-foundation/model/blob/main/embeddings/utils.py
`get_embeddings` builds every datacube batch on the GPU (`torch.tensor(..., device=device)`), runs
`clay.model.encoder(datacube)` under `torch.no_grad()`, and "moves embeddings to CPU early":
`batch_cls_embeddings = unmsk_patch[:, 0, :].cpu()...`, `batch_patch_embeddings =
unmsk_patch[:, 1:, :].cpu()...`, stacked across batches on the host for writing to GeoParquet.
Look-alike: GPU encoder outputs accumulated next to CPU arrays on purpose; it runs.
Stand-ins: a Clay encoder returning a class token plus patch tokens, `unmsk_patch[:, 0, :]` /
`[:, 1:, :]` written as `select` / `narrow` (the simulator cannot take `[]` on GPU tensors), and
torch `vstack` on CPU tensors for numpy's (`.numpy()` of simulated tensors is not available).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn


class Encoder(nn.Module):
    def __init__(self, bands=4, patch_size=8, dim=32):
        super().__init__()
        self.patch_embedding = nn.Conv2d(bands, dim, patch_size, stride=patch_size)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))
        self.time_embedding = nn.Linear(4, dim)
        self.latlon_embedding = nn.Linear(4, dim)

    def forward(self, datacube):
        patches = self.patch_embedding(datacube["pixels"]).flatten(2).transpose(1, 2)
        patches = patches + self.time_embedding(datacube["time"]).unsqueeze(1) + self.latlon_embedding(datacube["latlon"]).unsqueeze(1)
        cls = self.cls_token.expand(patches.shape[0], -1, -1)
        unmsk_patch = torch.cat([cls, patches], dim=1)
        return unmsk_patch, None, None, None


class ClayMAEModule(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = nn.Module()
        self.model.encoder = Encoder()


def get_embeddings(clay, pixels_norm, time_norm, latlon_norm, waves, gsd, batchsize):
    device = torch.device("cuda:0")                 # cuda if available
    cls_embeddings = None
    for i in range(0, len(pixels_norm), batchsize):
        datacube = {
            "pixels": torch.tensor(pixels_norm[i : (i + batchsize)], dtype=torch.float32, device=device),
            "time": torch.tensor(time_norm[i : (i + batchsize)], dtype=torch.float32, device=device),
            "latlon": torch.tensor(latlon_norm[i : (i + batchsize)], dtype=torch.float32, device=device),
            "waves": torch.tensor(waves, dtype=torch.float32, device=device),
            "gsd": torch.tensor(gsd, dtype=torch.float32, device=device),
            "platform": ["naip"],
        }
        with torch.no_grad():
            unmsk_patch, unmsk_idx, msk_idx, msk_matrix = clay.model.encoder(datacube)
        # The first embedding is the class token, which is the overall single embedding we want to keep.
        batch_cls_embeddings = unmsk_patch.select(1, 0).cpu()
        batch_patch_embeddings = unmsk_patch.narrow(1, 1, unmsk_patch.shape[1] - 1).cpu()
        if cls_embeddings is None:
            cls_embeddings = batch_cls_embeddings
            patch_embeddings = batch_patch_embeddings
        else:
            cls_embeddings = torch.vstack((cls_embeddings, batch_cls_embeddings))
            patch_embeddings = torch.vstack((patch_embeddings, batch_patch_embeddings))
    return cls_embeddings, patch_embeddings


clay = ClayMAEModule().to(torch.device("cuda:0")).eval()
pixels_norm = np.random.rand(6, 4, 32, 32).astype("float32")      # normalised NAIP chips
time_norm = np.random.rand(6, 4).astype("float32")
latlon_norm = np.random.rand(6, 4).astype("float32")
waves = [0.65, 0.56, 0.48, 0.842]
gsd = 0.6
'''
CELL = '''
cls_embeddings, patch_embeddings = get_embeddings(clay, pixels_norm, time_norm, latlon_norm, waves, gsd, batchsize=2)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
