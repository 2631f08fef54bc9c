"""Presto (remote-sensing pixel time series): `Presto.load_pretrained()` leaves the model on the CPU.

Source: https://github.com/nasaharvest/presto/pull/30
With a GPU present, `presto.utils.device` is cuda:0 and the encoder's helpers put what they build
there (`month_to_tensor(...).to(device)`, the channel index `.to(device)`), but the model returned by
`Presto.load_pretrained()` was built on the CPU: `load_state_dict(torch.load(path,
map_location=device))` copies the cuda checkpoint into CPU parameters. Running the encoder on the
user's cuda inputs fails with "Expected all tensors to be on the same device, but found at least two
devices, cpu and cuda:0! (... argument mat1 in method wrapper_CUDA_addmm)". The author closed this PR
for the maintainers' #31 ("a better fix"), which makes `load_pretrained` return `model.to(device)`.
Stand-ins: presto's `device`, `month_to_tensor`, the month table, an Encoder reduced to one
Sentinel-2 band group + month/channel embeddings + latlon token, `Presto.load_pretrained` (the
checkpoint is the model's own state dict mapped to `device`, no file).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
from torch import nn

device = torch.device("cuda:0")          # presto.utils.device: cuda if available


def get_month_encoding_table(d_hid):
    angles = np.arange(0, 13) / (12 / (2 * np.pi))
    sin_table = np.sin(np.stack([angles for _ in range(d_hid // 2)], axis=-1))
    cos_table = np.cos(np.stack([angles for _ in range(d_hid // 2)], axis=-1))
    month_table = np.concatenate([sin_table[:-1], cos_table[:-1]], axis=-1)
    return torch.FloatTensor(month_table)


def month_to_tensor(month, batch_size, seq_len):
    month = (
        torch.fmod(torch.arange(month, month + seq_len, dtype=torch.long), 12)
        .expand(batch_size, seq_len)
        .to(device)
    )
    return month


class Encoder(nn.Module):
    def __init__(self, embedding_size=32, channel_embed_ratio=0.25, month_embed_ratio=0.25):
        super().__init__()
        self.band_groups = {"S2_RGB": [0, 1, 2]}
        self.band_group_to_idx = {"S2_RGB": 0, "dynamic_world": 1}
        self.embedding_size = embedding_size
        self.eo_patch_embed = nn.ModuleDict(
            {name: nn.Linear(len(group), embedding_size) for name, group in self.band_groups.items()}
        )
        self.latlon_embed = nn.Linear(3, embedding_size)
        month_dim = int(embedding_size * month_embed_ratio)
        channel_dim = int(embedding_size * channel_embed_ratio)
        self.pos_dim = embedding_size - month_dim - channel_dim
        self.month_embed = nn.Embedding.from_pretrained(get_month_encoding_table(month_dim), freeze=True)
        self.channel_embed = nn.Embedding(len(self.band_group_to_idx) + 1, channel_dim)
        self.norm = nn.LayerNorm(embedding_size)

    @staticmethod
    def cartesian(latlons):
        lat, lon = torch.deg2rad(latlons[:, 0]), torch.deg2rad(latlons[:, 1])
        return torch.stack([torch.cos(lat) * torch.cos(lon), torch.cos(lat) * torch.sin(lon), torch.sin(lat)], dim=-1)

    def forward(self, x, latlons, month=0, eval_task=True):
        months = month_to_tensor(month, x.shape[0], x.shape[1])
        month_embedding = self.month_embed(months)
        tokens = self.eo_patch_embed["S2_RGB"](x)
        channel_embedding = self.channel_embed(
            torch.tensor(self.band_group_to_idx["S2_RGB"]).long().to(device)
        ).expand(x.shape[0], x.shape[1], -1)
        positional_embedding = torch.zeros(x.shape[0], x.shape[1], self.pos_dim, device=x.device)
        tokens = tokens + torch.cat((month_embedding, channel_embedding, positional_embedding), dim=-1)
        latlon_tokens = self.latlon_embed(self.cartesian(latlons)).unsqueeze(1)
        x = torch.cat((latlon_tokens, tokens), dim=1)
        return self.norm(x.mean(dim=1))


class Presto(nn.Module):
    def __init__(self, encoder):
        super().__init__()
        self.encoder = encoder

    @classmethod
    def construct(cls, **kwargs):
        return cls(Encoder(**kwargs))

    @classmethod
    def load_pretrained(cls):
        model = cls.construct()
        checkpoint = {k: v.to(device) for k, v in model.state_dict().items()}   # torch.load(path, map_location=device)
        model.load_state_dict(checkpoint)
        return model


model = Presto.load_pretrained()
x = torch.rand(4, 12, 3).to(device)                  # 4 pixels, 12 monthly timesteps, S2 RGB
latlons = torch.tensor([[45.5, -73.6]] * 4).to(device)
'''
CELL = '''
with torch.no_grad():
    embeddings = model.encoder(x, latlons=latlons, month=1)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model = model.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
