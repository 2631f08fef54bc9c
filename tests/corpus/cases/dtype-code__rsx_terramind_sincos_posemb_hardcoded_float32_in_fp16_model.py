"""TerraMind (TerraTorch) served in float16: the 2D sin-cos positional embedding is hard-coded to float32.

Source: https://github.com/torchgeo/terratorch/issues/1032
"For some models, such as Terramind, there are types statically set to torch.float ... in the
Terramind backbone while initializing the positional embeddings" (`build_2d_sincos_posemb` makes
`omega = torch.arange(pos_dim, dtype=torch.float)`). vLLM builds models under a float16 default
dtype, so every parameter is half but the `pos_emb` buffer is float32; `x + emb` is promoted to
float32 and the first encoder block's half LayerNorm/Linear fails (on this CPU: "mixed dtype (CPU): expect
parameter to have scalar type of Float"): "Loading terramind with vLLM fails exactly
because of a data mismatch float16 vs float32". The reporter's fix, merged in #1033, uses
`torch.get_default_dtype()` instead of `torch.float`.
Stand-ins: vLLM's `set_default_torch_dtype` loader context, TerraMind's `ImageEncoderEmbedding` and
a ViT backbone reduced to its embedding sum, MLP blocks and norm (einops rearrange written with
`unfold`).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import contextlib
import torch
from torch import nn


def build_2d_sincos_posemb(h, w, embed_dim=1024, temperature=10000.0):
    """Sine-cosine positional embeddings as used in MoCo-v3: (1, W*H, D)."""
    grid_w = torch.arange(w)  # Shape (W,)
    grid_h = torch.arange(h)  # Shape (H, )
    grid_w, grid_h = torch.meshgrid(grid_w, grid_h, indexing="ij")  # Shapes (W, H)
    pos_dim = embed_dim // 4
    omega = torch.arange(pos_dim, dtype=torch.float) / pos_dim  # Shape (D/4,)
    omega = 1.0 / (temperature**omega)
    out_w = torch.einsum("n,d->nd", [grid_w.reshape(-1), omega])  # Outer product, shape (W*H, D/4)
    out_h = torch.einsum("n,d->nd", [grid_h.reshape(-1), omega])  # Outer product, shape (W*H, D/4)
    pos_emb = torch.cat([torch.sin(out_w), torch.cos(out_w), torch.sin(out_h), torch.cos(out_h)], dim=1).unsqueeze(0)
    return pos_emb


class ImageEncoderEmbedding(nn.Module):
    def __init__(self, num_channels, patch_size, dim_tokens, image_size=64):
        super().__init__()
        self.num_channels = num_channels
        self.patch_size = patch_size
        self.image_size = image_size
        self.dim_tokens = dim_tokens
        h_posemb = w_posemb = image_size // patch_size
        pos_emb = build_2d_sincos_posemb(h=h_posemb, w=w_posemb, embed_dim=dim_tokens)
        self.register_buffer("pos_emb", pos_emb)  # self.pos_emb is now a buffer for FSDP
        self.mod_emb = nn.Parameter(torch.zeros(1, 1, dim_tokens))
        self.proj = nn.Linear(num_channels * patch_size * patch_size, dim_tokens, bias=False)

    def forward(self, d):
        if not isinstance(d, dict):
            d = {"tensor": d}
        x = d["tensor"]
        B = x.shape[0]
        patches = nn.functional.unfold(x, self.patch_size, stride=self.patch_size).transpose(1, 2)
        x_patch = self.proj(patches)
        x_emb = (self.pos_emb + self.mod_emb).expand(B, -1, -1)
        d["x"] = x_patch
        d["emb"] = x_emb
        return d


class Block(nn.Module):
    def __init__(self, dim, mlp_ratio=4):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, dim * mlp_ratio), nn.GELU(), nn.Linear(dim * mlp_ratio, dim))

    def forward(self, x):
        return x + self.mlp(self.norm(x))


class TerraMindViT(nn.Module):
    def __init__(self, modalities=("S2L2A",), in_chans=12, img_size=64, patch_size=16, dim=64, depth=2):
        super().__init__()
        self.encoder_embeddings = nn.ModuleDict(
            {mod: ImageEncoderEmbedding(in_chans, patch_size, dim, image_size=img_size) for mod in modalities}
        )
        self.encoder = nn.ModuleList([Block(dim) for _ in range(depth)])
        self.encoder_norm = nn.LayerNorm(dim)

    def forward(self, d):
        x = []
        for mod, tensor in d.items():
            mod_dict = self.encoder_embeddings[mod](tensor)
            # Add embeddings to patchified data
            x.append(mod_dict["x"] + mod_dict["emb"])
        x = torch.cat(x, dim=1)
        for block in self.encoder:
            x = block(x)
        return self.encoder_norm(x)


@contextlib.contextmanager
def set_default_torch_dtype(dtype):          # vllm.model_executor.model_loader.utils
    old_dtype = torch.get_default_dtype()
    torch.set_default_dtype(dtype)
    yield
    torch.set_default_dtype(old_dtype)


model_dtype = torch.float16
with set_default_torch_dtype(model_dtype):
    model = TerraMindViT(modalities=("S2L2A",), in_chans=12).eval()

pixel_values = torch.rand(2, 12, 64, 64).to(model_dtype)   # vLLM casts multimodal inputs to the model dtype
'''
CELL = '''
with torch.no_grad():
    features = model({"S2L2A": pixel_values})
'''
EXPECT_ERROR = ("mixed dtype", "expected scalar type", "mat1 and mat2 must have the same dtype")
CULPRITS = ["build_2d_sincos_posemb"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("omega = torch.arange(pos_dim, dtype=torch.float) / pos_dim",
                  "omega = torch.arange(pos_dim, dtype=torch.get_default_dtype()) / pos_dim")
CLEAN = False
