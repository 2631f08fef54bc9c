"""Look-alike: query points on the accelerator indexed with window indices kept on the CPU.

Source: https://github.com/cxliu0/PET/issues/4
PET's `points_queries_win = points_queries_win[:, v_idx].reshape(-1, 2)` raised "indices should be
either on cpu or on the same device as the indexed tensor (cpu)" when the model ran on the CPU
with `v_idx` elsewhere; the accepted fix was `v_idx = v_idx.cpu()`, which works because CPU
indices may index a tensor on any device. This is that layout on an accelerator: the queries on
the device, the window indices on the CPU, nothing to report. Simulated with meta as the
accelerator.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class QueryEmbed(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.pos = nn.Linear(2, dim)

    def forward(self, points_queries_win):
        return self.pos(points_queries_win)

device = "meta"
query_embed = QueryEmbed().to(device)
# queries grouped by window: [points per window, windows, 2]
points_queries_win = torch.rand(4, 6, 2).to(device)
# windows that contain targets, chosen on the CPU (like the user's fix: v_idx = v_idx.cpu())
v_idx = torch.tensor([0, 2, 3, 5])
'''
CELL = '''
selected = points_queries_win[:, v_idx].reshape(-1, 2)
query_features = query_embed(selected)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
