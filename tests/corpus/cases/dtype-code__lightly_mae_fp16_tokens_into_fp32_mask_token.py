"""Lightly's MAE example under 16-bit mixed precision scatters FP16 decoder tokens into an FP32 mask-token grid.

Source: https://github.com/lightly-ai/lightly/pull/1094
Training the MAE example with half precision failed in `utils.set_at_index` ("scatter(): Expected
self.dtype to be equal to src.dtype"): under autocast `self.decoder.embed(x_encoded)` returns float16,
while `self.mask_token` is an FP32 parameter, and `torch.scatter` needs both inputs in one dtype. The
fix (closing issue 1077) converts the encoded tokens to the mask token's dtype before `set_at_index`.
Stand-in: lightly's utils (repeat_token, set_at_index, get_at_index, random_token_mask, patchify) and
the example's forward_encoder/forward_decoder/training_step around small linear encoder/decoder parts;
CPU autocast in float16 plays Trainer(precision=16).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
import torch.nn as nn

def repeat_token(token, size):
    batch_size, sequence_length = size
    return token.repeat(batch_size, sequence_length, 1)

def expand_index_like(index, tokens):
    return index.unsqueeze(-1).expand(-1, -1, tokens.shape[-1])

def set_at_index(tokens, index, value):
    return torch.scatter(tokens, 1, expand_index_like(index, tokens), value)

def get_at_index(tokens, index):
    return torch.gather(tokens, 1, expand_index_like(index, tokens))

def random_token_mask(size, mask_ratio=0.6, device="cpu"):
    batch_size, sequence_length = size
    num_keep = int(sequence_length * (1 - mask_ratio))
    noise = torch.rand(batch_size, sequence_length, device=device)
    noise[:, 0] = -1                      # keep the class token
    indices = torch.argsort(noise, dim=1)
    return indices[:, :num_keep], indices[:, num_keep:]

def patchify(images, patch_size):
    n, c, h, w = images.shape
    p = patch_size
    x = images.reshape(n, c, h // p, p, w // p, p).permute(0, 2, 4, 3, 5, 1)
    return x.reshape(n, (h // p) * (w // p), p * p * c)

class MAEBackbone(nn.Module):
    def __init__(self, patch_size=8, hidden_dim=32, seq_length=17):
        super().__init__()
        self.patch_size = patch_size
        self.patch_embed = nn.Linear(patch_size * patch_size * 3, hidden_dim)
        self.class_token = nn.Parameter(torch.zeros(1, 1, hidden_dim))
        self.pos_embedding = nn.Parameter(torch.randn(1, seq_length, hidden_dim) * 0.02)
        self.encoder = nn.Sequential(nn.LayerNorm(hidden_dim), nn.Linear(hidden_dim, hidden_dim), nn.GELU())

    def encode(self, images, idx_keep=None):
        x = self.patch_embed(patchify(images, self.patch_size))
        x = torch.cat([self.class_token.expand(x.shape[0], -1, -1), x], dim=1) + self.pos_embedding
        if idx_keep is not None:
            x = get_at_index(x, idx_keep)
        return self.encoder(x)

class MAEDecoder(nn.Module):
    def __init__(self, embed_input_dim=32, hidden_dim=16, out_dim=8 * 8 * 3):
        super().__init__()
        self.embed = nn.Linear(embed_input_dim, hidden_dim)
        self.decode = nn.Sequential(nn.LayerNorm(hidden_dim), nn.Linear(hidden_dim, hidden_dim), nn.GELU())
        self.predict = nn.Linear(hidden_dim, out_dim)

class MAE(nn.Module):                      # a pl.LightningModule in the example
    def __init__(self, decoder_dim=16):
        super().__init__()
        self.mask_ratio = 0.75
        self.patch_size = 8
        self.sequence_length = 17
        self.mask_token = nn.Parameter(torch.zeros(1, 1, decoder_dim))
        self.backbone = MAEBackbone(self.patch_size, 32, self.sequence_length)
        self.decoder = MAEDecoder(32, decoder_dim, self.patch_size ** 2 * 3)
        self.criterion = nn.MSELoss()

    def forward_encoder(self, images, idx_keep=None):
        return self.backbone.encode(images, idx_keep)

    def forward_decoder(self, x_encoded, idx_keep, idx_mask):
        batch_size = x_encoded.shape[0]
        x_decode = self.decoder.embed(x_encoded)
        x_masked = repeat_token(self.mask_token, (batch_size, self.sequence_length))
        x_masked = set_at_index(x_masked, idx_keep, x_decode)
        x_decoded = self.decoder.decode(x_masked)
        x_pred = get_at_index(x_decoded, idx_mask)
        return self.decoder.predict(x_pred)

    def training_step(self, batch, batch_idx):
        views = batch[0]
        images = views[0]
        batch_size = images.shape[0]
        idx_keep, idx_mask = random_token_mask(size=(batch_size, self.sequence_length),
                                               mask_ratio=self.mask_ratio, device=images.device)
        x_encoded = self.forward_encoder(images, idx_keep)
        x_pred = self.forward_decoder(x_encoded, idx_keep, idx_mask)
        patches = patchify(images, self.patch_size)
        target = get_at_index(patches, idx_mask - 1)
        return self.criterion(x_pred, target)

model = MAE()
batch = ([torch.rand(2, 3, 32, 32)], torch.zeros(2), ["a.png", "b.png"])
'''
CELL = '''
with torch.autocast("cpu", dtype=torch.float16):      # Trainer(precision=16)
    loss = model.training_step(batch, 0)
'''
EXPECT_ERROR = "scatter(): Expected self.dtype to be equal to src.dtype"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "x_masked = set_at_index(x_masked, idx_keep, x_decode)",
    "x_masked = set_at_index(x_masked, idx_keep, x_decode.to(x_masked.dtype))",
)
CLEAN = False
