"""Stylized Neural Painting on a chosen GPU: demo_prog.py uses cuda:2, painter.py keeps its own cuda:0 global.

Source: https://github.com/jiupinjia/stylized-neural-painting/issues/65
The reporter added `--gpu` and set `device = torch.device(f"cuda:{args.gpu}")` in demo_prog.py, but
painter.py has its own module-level `device = torch.device("cuda:0" if torch.cuda.is_available() else
"cpu")` that places `net_G` and the stroke parameters; the demo's canvas is on cuda:2, so
`_forward_pass` failed at `G_pred_foreground * G_pred_alpha + self.G_pred_canvas * (1 - G_pred_alpha)`
with "found at least two devices, cuda:2 and cuda:0" ("It seems some data keep using cuda:0").
painter.py is run as its own module; renderer/net_G are small stand-ins, and slicing is written
with narrow/select (the fake-cuda simulation refuses Python indexing).
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import types
import numpy as np
import torch
from torch import nn

PAINTER_PY = """
import numpy as np
import torch
from torch import nn

device = torch.device("cuda:0")      # "cuda:0" if torch.cuda.is_available() else "cpu"

class Generator(nn.Module):
    def __init__(self, d=12, out_size=16):
        super().__init__()
        self.out_size = out_size
        self.fc = nn.Linear(d, 6 * out_size * out_size)

    def forward(self, v):
        y = self.fc(v.flatten(1)).view(-1, 6, self.out_size, self.out_size)
        foreground, alpha = y.split(3, dim=1)
        return torch.sigmoid(foreground), torch.sigmoid(alpha)

class Painter:
    def __init__(self, m_strokes_per_block=2, d_shape=5, d_color=6, d_alpha=1):
        self.net_G = Generator(d=d_shape + d_color + d_alpha).to(device)
        self.m_strokes_per_block = m_strokes_per_block
        self.d_shape, self.d_color, self.d_alpha = d_shape, d_color, d_alpha
        self.m_grid, self.anchor_id = 1, 0

    def initialize_params(self):
        n = self.m_grid * self.m_grid
        self.x_ctt = torch.tensor(np.random.rand(n, self.m_strokes_per_block, self.d_shape).astype(np.float32)).to(device)
        self.x_color = torch.tensor(np.random.rand(n, self.m_strokes_per_block, self.d_color).astype(np.float32)).to(device)
        self.x_alpha = torch.tensor(np.random.rand(n, self.m_strokes_per_block, self.d_alpha).astype(np.float32)).to(device)

    def _forward_pass(self):
        self.x = torch.cat([self.x_ctt, self.x_color, self.x_alpha], dim=-1)
        v = torch.reshape(self.x.narrow(1, 0, self.anchor_id + 1),
                          [self.m_grid * self.m_grid * (self.anchor_id + 1), -1, 1, 1])
        self.G_pred_foregrounds, self.G_pred_alphas = self.net_G(v)
        self.G_pred_foregrounds = torch.reshape(
            self.G_pred_foregrounds, [self.m_grid * self.m_grid, self.anchor_id + 1, 3,
                                      self.net_G.out_size, self.net_G.out_size])
        self.G_pred_alphas = torch.reshape(
            self.G_pred_alphas, [self.m_grid * self.m_grid, self.anchor_id + 1, 3,
                                 self.net_G.out_size, self.net_G.out_size])
        for i in range(self.anchor_id + 1):
            G_pred_foreground = self.G_pred_foregrounds.select(1, i)
            G_pred_alpha = self.G_pred_alphas.select(1, i)
            self.G_pred_canvas = G_pred_foreground * G_pred_alpha \\\\
                                 + self.G_pred_canvas * (1 - G_pred_alpha)
        self.G_final_pred_canvas = self.G_pred_canvas
"""
painter = types.ModuleType("painter")
exec(PAINTER_PY, painter.__dict__)

# demo_prog.py
args = types.SimpleNamespace(gpu=2)
device = torch.device(f"cuda:{args.gpu}")
pt = painter.Painter()
CANVAS_tmp = torch.ones([1, 3, pt.net_G.out_size, pt.net_G.out_size]).to(device)
pt.m_grid = 1
pt.initialize_params()
'''
CELL = '''
pt.G_pred_canvas = CANVAS_tmp
pt._forward_pass()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["pt.net_G"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('device = torch.device("cuda:0")      # "cuda:0" if torch.cuda.is_available() else "cpu"',
                  'device = torch.device("cuda:2")')
CLEAN = False
