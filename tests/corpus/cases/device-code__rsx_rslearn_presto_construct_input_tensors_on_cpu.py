"""rslearn's Presto wrapper on a GPU: `construct_presto_input` builds the Presto input tensors on the CPU.

Source: https://github.com/allenai/rslearn/pull/314
rslearn wraps Presto for its satellite time-series tasks; `construct_presto_input` stacks the
Sentinel-1/2 windows (on the GPU under Lightning) into Presto's band layout, but allocated `x`,
`mask` and `dynamic_world` with `torch.zeros(...)`/`torch.ones(...)` and no device, and normalised
with the CPU constants `PRESTO_ADD_BY`/`PRESTO_DIV_BY` from `single_file_presto`. The PR "Fix Presto
tensors on different devices error" takes the device of the inputs (`devices = [x.device for x in
[s1, s2, era5, srtm] if x is not None]`), creates the four tensors with `device=device` and moves the
constants with `.to(device=device)`.
Stand-ins: the band lists and constants shortened to six bands, the Presto encoder reduced to a
linear token projection, `x[..., idx] = data` written as `index_copy_` / `index_fill_` and einops
`rearrange` as `permute`/`reshape` (the simulator cannot take `[]` on GPU tensors; copying the GPU
window into the CPU `x` is where it fails), one pixel batch.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

PRESTO_BANDS = ["VV", "VH", "B2", "B3", "B4", "B8"]
INPUT_PRESTO_BANDS = PRESTO_BANDS
PRESTO_S1_BANDS = ["VV", "VH"]
INPUT_PRESTO_S2_BANDS = ["B2", "B3", "B4", "B8"]
PRESTO_ADD_BY = torch.tensor([25.0, 25.0, 0.0, 0.0, 0.0, 0.0])     # single_file_presto constants (CPU)
PRESTO_DIV_BY = torch.tensor([25.0, 25.0, 1e4, 1e4, 1e4, 1e4])
NUM_DYNAMIC_WORLD_CLASSES = 9


class PrestoEncoder(nn.Module):
    def __init__(self, in_bands=6, embedding_size=32):
        super().__init__()
        self.embedding_size = embedding_size
        self.proj = nn.Linear(in_bands, embedding_size)
        self.month_embed = nn.Embedding(12, embedding_size)

    def forward(self, x, dynamic_world, latlons=None, mask=None, month=None):
        tokens = self.proj(x * (1 - mask)) + self.month_embed(month)
        return tokens.mean(dim=1)


class Presto(nn.Module):
    def __init__(self, month=6):
        super().__init__()
        self.month = month
        self.encoder = PrestoEncoder(len(INPUT_PRESTO_BANDS))

    def construct_presto_input(self, s1=None, s1_bands=None, s2=None, s2_bands=None, normalize=True):
        bs = [x.shape[0] for x in [s1, s2] if x is not None]
        hs = [x.shape[2] for x in [s1, s2] if x is not None]
        ws = [x.shape[3] for x in [s1, s2] if x is not None]
        b, h, w = bs[0], hs[0], ws[0]
        x = mask = t = None
        for data, input_bands in [(s1, s1_bands), (s2, s2_bands)]:
            if data is None:
                continue
            m_t = data.shape[1] // len(input_bands)
            t = m_t if t is None else t
            data = data.reshape(b, m_t, len(input_bands), h, w).permute(0, 1, 3, 4, 2)  # "b (t c) h w -> b t h w c"
            if x is None:
                x = torch.zeros(b, t, h, w, len(INPUT_PRESTO_BANDS))
            if mask is None:
                mask = torch.ones(b, t, h, w, len(INPUT_PRESTO_BANDS))
            idx = torch.tensor([INPUT_PRESTO_BANDS.index(val) for val in input_bands], device=x.device)
            x.index_copy_(4, idx, data)                   # x[:, :, :, :, input_to_output_mapping] = data
            mask.index_fill_(4, idx, 0)                   # mask[:, :, :, :, input_to_output_mapping] = 0
        dynamic_world = torch.ones(b, t, h, w) * NUM_DYNAMIC_WORLD_CLASSES
        months = torch.ones((b, t), device=x.device) * self.month
        if normalize:
            x = (x + PRESTO_ADD_BY) / PRESTO_DIV_BY
        return x, mask, dynamic_world.long(), months.long()

    def forward(self, inputs):
        stacked = {key: torch.stack([inp[key] for inp in inputs], dim=0) for key in inputs[0]}
        x, mask, dynamic_world, months = self.construct_presto_input(
            s1=stacked["sentinel1"], s1_bands=PRESTO_S1_BANDS,
            s2=stacked["sentinel2"], s2_bands=INPUT_PRESTO_S2_BANDS, normalize=True,
        )
        b, t, h, w, d = x.shape
        x = x.permute(0, 2, 3, 1, 4).reshape(b * h * w, t, d)          # "b t h w d -> (b h w) t d"
        mask = mask.permute(0, 2, 3, 1, 4).reshape(b * h * w, t, d)
        months = months.unsqueeze(1).unsqueeze(1).expand(b, h, w, t).reshape(b * h * w, t)
        dynamic_world = dynamic_world.permute(0, 2, 3, 1).reshape(b * h * w, t)
        feats = self.encoder(x, dynamic_world, mask=mask, month=months)
        return [feats.reshape(b, h, w, -1).permute(0, 3, 1, 2)]


device = torch.device("cuda:0")
model = Presto().to(device)
inputs = [
    {"sentinel1": torch.randn(2 * 12, 4, 4).to(device), "sentinel2": torch.rand(4 * 12, 4, 4).to(device)}
    for _ in range(2)
]                                                       # 12 monthly timesteps per window, moved by the Lightning module
'''
CELL = '''
with torch.no_grad():
    feature_maps = model(inputs)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "expected to be in the same device")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
'        b, h, w = bs[0], hs[0], ws[0]\n        x = mask = t = None\n        for data, input_bands in [(s1, s1_bands), (s2, s2_bands)]:\n            if data is None:\n                continue\n            m_t = data.shape[1] // len(input_bands)\n            t = m_t if t is None else t\n            data = data.reshape(b, m_t, len(input_bands), h, w).permute(0, 1, 3, 4, 2)  # "b (t c) h w -> b t h w c"\n            if x is None:\n                x = torch.zeros(b, t, h, w, len(INPUT_PRESTO_BANDS))\n            if mask is None:\n                mask = torch.ones(b, t, h, w, len(INPUT_PRESTO_BANDS))\n            idx = torch.tensor([INPUT_PRESTO_BANDS.index(val) for val in input_bands], device=x.device)\n            x.index_copy_(4, idx, data)                   # x[:, :, :, :, input_to_output_mapping] = data\n            mask.index_fill_(4, idx, 0)                   # mask[:, :, :, :, input_to_output_mapping] = 0\n        dynamic_world = torch.ones(b, t, h, w) * NUM_DYNAMIC_WORLD_CLASSES\n        months = torch.ones((b, t), device=x.device) * self.month\n        if normalize:\n            x = (x + PRESTO_ADD_BY) / PRESTO_DIV_BY',
'        devices = [x.device for x in [s1, s2] if x is not None]\n        assert len(set(devices)) == 1\n        b, h, w, device = bs[0], hs[0], ws[0], devices[0]\n        x = mask = t = None\n        for data, input_bands in [(s1, s1_bands), (s2, s2_bands)]:\n            if data is None:\n                continue\n            m_t = data.shape[1] // len(input_bands)\n            t = m_t if t is None else t\n            data = data.reshape(b, m_t, len(input_bands), h, w).permute(0, 1, 3, 4, 2)  # "b (t c) h w -> b t h w c"\n            if x is None:\n                x = torch.zeros(b, t, h, w, len(INPUT_PRESTO_BANDS), device=device)\n            if mask is None:\n                mask = torch.ones(b, t, h, w, len(INPUT_PRESTO_BANDS), device=device)\n            idx = torch.tensor([INPUT_PRESTO_BANDS.index(val) for val in input_bands], device=x.device)\n            x.index_copy_(4, idx, data)                   # x[:, :, :, :, input_to_output_mapping] = data\n            mask.index_fill_(4, idx, 0)                   # mask[:, :, :, :, input_to_output_mapping] = 0\n        dynamic_world = torch.ones(b, t, h, w, device=device) * NUM_DYNAMIC_WORLD_CLASSES\n        months = torch.ones((b, t), device=device) * self.month\n        if normalize:\n            x = (x + PRESTO_ADD_BY.to(device=device)) / PRESTO_DIV_BY.to(device=device)',
)
CLEAN = False
