"""Restormer demo.py `--tile`: the output/weight accumulators are built with `torch.zeros(...)` and moved by `.type_as(input_)`.

Source: https://github.com/swz30/Restormer/blob/main/demo.py
For large images the demo restores tile by tile: `E = torch.zeros(b, c, h, w).type_as(input_)` and
`W = torch.zeros_like(E)` look like CPU buffers next to a GPU model, but `type_as` gives them the
input's device and dtype, and `zeros_like` follows `E`. Each `out_patch` is added into `E`, a
`torch.ones_like(out_patch)` mask into `W`, and `restored = E.div_(W)`. Look-alike: no finding, it runs.
Stand-in: a two-conv residual "Restormer" on the padded input; the GPU is simulated by meta (slicing
fake cuda tensors is not possible here).
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

device = torch.device("meta")    # torch.device('cuda' if torch.cuda.is_available() else 'cpu'), simulated

class Restormer(nn.Module):
    def __init__(self, inp_channels=3, dim=8):
        super().__init__()
        self.patch_embed = nn.Conv2d(inp_channels, dim, 3, padding=1)
        self.output = nn.Conv2d(dim, inp_channels, 3, padding=1)

    def forward(self, inp_img):
        return self.output(F.gelu(self.patch_embed(inp_img))) + inp_img

model = Restormer()
model.to(device)
model.eval()

class Args:
    tile = 32
    tile_overlap = 8
args = Args()
img_multiple_of = 8
img = torch.randint(0, 256, (70, 90, 3), dtype=torch.uint8).numpy()     # utils.load_img(file_)
'''
CELL = '''
with torch.no_grad():
    input_ = torch.from_numpy(img).float().div(255.).permute(2, 0, 1).unsqueeze(0).to(device)
    height, width = input_.shape[2], input_.shape[3]
    H, W = ((height + img_multiple_of) // img_multiple_of) * img_multiple_of, ((width + img_multiple_of) // img_multiple_of) * img_multiple_of
    padh = H - height if height % img_multiple_of != 0 else 0
    padw = W - width if width % img_multiple_of != 0 else 0
    input_ = F.pad(input_, (0, padw, 0, padh), 'reflect')

    b, c, h, w = input_.shape
    tile = min(args.tile, h, w)
    tile_overlap = args.tile_overlap
    stride = tile - tile_overlap
    h_idx_list = list(range(0, h - tile, stride)) + [h - tile]
    w_idx_list = list(range(0, w - tile, stride)) + [w - tile]
    E = torch.zeros(b, c, h, w).type_as(input_)
    W = torch.zeros_like(E)
    for h_idx in h_idx_list:
        for w_idx in w_idx_list:
            in_patch = input_[..., h_idx:h_idx + tile, w_idx:w_idx + tile]
            out_patch = model(in_patch)
            out_patch_mask = torch.ones_like(out_patch)
            E[..., h_idx:(h_idx + tile), w_idx:(w_idx + tile)].add_(out_patch)
            W[..., h_idx:(h_idx + tile), w_idx:(w_idx + tile)].add_(out_patch_mask)
    restored = E.div_(W)
    restored = torch.clamp(restored, 0, 1)
    restored = restored[:, :, :height, :width]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
