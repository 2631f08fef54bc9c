"""Clay foundation model: the fixed sin-cos position/band encodings are plain tensor attributes left on the CPU.

Source: https://github.com/Clay-foundation/model/pull/95
Clay's `Encoder.__init__` builds `self.pos_encoding = posemb_sincos_2d(...)` and
`self.band_encoding = posemb_sincos_1d(...)` as ordinary tensor attributes. Lightning (here
`model.to(device)`) moves the parameters and buffers to the GPU, but not these tensors, so
`add_encodings` adds CPU encodings to cuda patch embeddings: "RuntimeError: Expected all tensors to
be on the same device, but found at least two devices, cuda:0 and cpu!". In the PR the maintainer
found the core issue ("the pos_encoding and band_encoding tensors are declared in the __init__
method, before Lightning has managed to cast them to the correct device") and registered both with
`self.register_buffer(..., persistent=False)`.
Stand-ins: Clay's encoder reduced to its patch embedding, `add_encodings` and metadata tokens
(no masking, as for embedding generation; an MLP for vit_pytorch's Transformer; band groups are
contiguous and sliced with `narrow`, which the simulator can take), the model wrapper without its
decoder.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn


def posemb_sincos_2d(h, w, dim, temperature: int = 10000, dtype=torch.float16):
    y, x = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")
    assert (dim % 4) == 0, "feature dimension must be multiple of 4 for sincos emb"
    omega = torch.arange(dim // 4) / (dim // 4 - 1)
    omega = 1.0 / (temperature**omega)
    y = y.flatten()[:, None] * omega[None, :]
    x = x.flatten()[:, None] * omega[None, :]
    pe = torch.cat((x.sin(), x.cos(), y.sin(), y.cos()), dim=1)
    return pe.type(dtype)


def posemb_sincos_1d(length, dim, temperature: int = 10000, dtype=torch.float16):
    position = torch.arange(length)
    omega = torch.arange(dim // 2) / (dim // 2 - 1)
    omega = 1.0 / (temperature**omega)
    scaled_pos = position[:, None] * omega[None, :]
    pe = torch.cat((scaled_pos.sin(), scaled_pos.cos()), dim=1)
    return pe.type(dtype)


class Patchify(nn.Module):
    def __init__(self, in_chans, embed_dim, patch_size):
        super().__init__()
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)
        self.norm = nn.LayerNorm(embed_dim)

    def forward(self, xb):
        xb = self.proj(xb)
        xb = xb.flatten(2).transpose(1, 2)           # "b d p1 p2 -> b (p1 p2) d"
        return self.norm(xb)


class Encoder(nn.Module):
    def __init__(self, image_size, patch_size, dim, bands, band_groups, emb_dropout=0.0):
        super().__init__()
        self.image_size = image_size
        self.patch_size = patch_size
        self.dim = dim
        self.bands = bands
        self.band_groups = band_groups
        self.num_spatial_patches = (image_size // patch_size) ** 2
        self.num_group_patches = len(band_groups)

        # Split the embedding dimensions between spatial & band patches equally
        pos_dim = band_dim = dim // 2

        self.latlon_embedding = nn.Linear(2, dim)
        self.time_embedding = nn.Linear(3, dim)
        self.patch_embedding = nn.ModuleDict(
            {name: Patchify(len(idx), dim, patch_size) for name, idx in self.band_groups.items()}
        )

        # Fix the position & band embedding to sine & cosine functions
        self.pos_encoding = posemb_sincos_2d(
            h=image_size // patch_size, w=image_size // patch_size, dim=pos_dim
        )  # [L D/2]
        self.band_encoding = posemb_sincos_1d(
            length=self.num_group_patches, dim=band_dim
        )  # [G D/2]

        # Freeze the weights of position & band encoding
        self.pos_encoding = self.pos_encoding.requires_grad_(False)
        self.band_encoding = self.band_encoding.requires_grad_(False)

        self.dropout = nn.Dropout(emb_dropout)
        self.transformer = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def to_patch_embed(self, cube):
        patches = []
        for name, idx in self.band_groups.items():
            cubeslice = cube.narrow(1, idx[0], len(idx))   # cube[:, bands, :, :]
            patches.append(self.patch_embedding[name](cubeslice))
        return torch.stack(patches, dim=1)                # "G B L D -> B G L D"

    def add_encodings(self, patches):
        B, G, L, D = patches.shape
        pos_encoding = self.pos_encoding.unsqueeze(0).unsqueeze(0).expand(1, G, L, D // 2)
        band_encoding = self.band_encoding.unsqueeze(0).unsqueeze(2).expand(1, G, L, D // 2)
        pos_band_encoding = torch.cat((pos_encoding, band_encoding), dim=-1)  # [1 G L D]
        patches = patches + pos_band_encoding
        return self.dropout(patches)

    def embed_metadata(self, patches, latlon, time):
        latlon_embedding = self.latlon_embedding(latlon).unsqueeze(1)
        time_embedding = self.time_embedding(time).unsqueeze(1)
        return torch.cat([patches, latlon_embedding, time_embedding], dim=1)

    def forward(self, datacube):
        cube, time, latlon = datacube["pixels"], datacube["timestep"], datacube["latlon"]
        patches = self.to_patch_embed(cube)            # [B G L D]
        patches = self.add_encodings(patches)          # [B G L D]
        patches = patches.flatten(1, 2)                # [B (GL) D]
        patches = self.embed_metadata(patches, latlon, time)
        return self.transformer(patches)


class CLAY(nn.Module):
    def __init__(self, **kwargs):
        super().__init__()
        self.encoder = Encoder(**kwargs)


band_groups = {"rgb": [0, 1, 2], "rededge": [3, 4, 5, 6], "nir": [7], "swir": [8, 9], "sar": [10, 11], "dem": [12]}
device = torch.device("cuda:0")
model = CLAY(image_size=32, patch_size=8, dim=64, bands=13, band_groups=band_groups).to(device)
datacube = {
    "pixels": torch.randn(2, 13, 32, 32).to(device),
    "timestep": torch.rand(2, 3).to(device),
    "latlon": torch.rand(2, 2).to(device),
}
'''
CELL = '''
with torch.no_grad():
    embeddings = model.encoder(datacube)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.encoder"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """        self.pos_encoding = posemb_sincos_2d(
            h=image_size // patch_size, w=image_size // patch_size, dim=pos_dim
        )  # [L D/2]
        self.band_encoding = posemb_sincos_1d(
            length=self.num_group_patches, dim=band_dim
        )  # [G D/2]
""",
    """        self.register_buffer(
            name="pos_encoding",
            tensor=posemb_sincos_2d(
                h=image_size // patch_size, w=image_size // patch_size, dim=pos_dim
            ),  # [L D/2]
            persistent=False,
        )
        self.register_buffer(
            name="band_encoding",
            tensor=posemb_sincos_1d(length=self.num_group_patches, dim=band_dim),  # [G D/2]
            persistent=False,
        )
""",
)
CLEAN = False
