"""nanofold (AlphaFold2 re-implementation) training on cuda: the structure module starts from identity frames made on the CPU.

Source: https://github.com/ogchen/nanofold/pull/4
The first GPU runs of nanofold's `train.py` (`General.device = cuda`) failed with tensors on cpu and
cuda; PR #4 "Fix issues with model and tensors on incorrect device when using cuda" fixed several
placements. The one inside the model: `StructureModule.forward` initialises the backbone frames with
`torch.eye(3).unsqueeze(0).repeat(*batch_dims, 1, 1)` and `torch.zeros(*batch_dims, 3)`, on the CPU,
and composes them with the GPU backbone updates. The PR creates both with `device=single.device`.
Here the batch is already on the GPU (the PR's other edits), so only the frames are left.
Stand-ins: Frame / BackboneUpdate / StructureModule(Layer) as in nanofold, without the invariant point
attention; slices are written `split`/`unbind` (the simulator cannot slice fake GPU tensors).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class Frame:
    def __init__(self, rotations, translations):
        self.rotations = rotations
        self.translations = translations

    @staticmethod
    def apply(frame, vectors):
        return (frame.rotations @ vectors.unsqueeze(-1)).squeeze(-1) + frame.translations

    @staticmethod
    def compose(a, b):
        rotations = a.rotations @ b.rotations
        translations = Frame.apply(a, b.translations)
        return Frame(rotations, translations)

class BackboneUpdate(nn.Module):
    def __init__(self, single_embedding_size):
        super().__init__()
        self.linear = nn.Linear(single_embedding_size, 3 + 1 + 1 + 1)

    def forward(self, single):
        out = self.linear(single)
        bcd, trans = out.split([3, 3], dim=-1)
        b0, b1, b2 = bcd.unbind(-1)
        a = 1 / torch.sqrt(1 + b0 ** 2 + b1 ** 2 + b2 ** 2)
        b, c, d = (a.unsqueeze(-1) * bcd).unbind(-1)
        r0 = torch.stack([a**2 + b**2 - c**2 - d**2, 2 * (b * c - a * d), 2 * (a * c + b * d)], dim=-1)
        r1 = torch.stack([2 * (b * c + a * d), a**2 - b**2 + c**2 - d**2, 2 * (c * d - a * b)], dim=-1)
        r2 = torch.stack([2 * (b * d - a * c), 2 * (a * b + c * d), a**2 - b**2 - c**2 + d**2], dim=-1)
        return Frame(rotations=torch.stack([r0, r1, r2], dim=-2), translations=trans)

class StructureModuleLayer(nn.Module):
    def __init__(self, single_embedding_size, dropout=0.1):
        super().__init__()
        self.backbone_update = BackboneUpdate(single_embedding_size)
        self.dropout = nn.Dropout(dropout)
        self.layer_norm = nn.LayerNorm(single_embedding_size)
        self.linear1 = nn.Linear(single_embedding_size, single_embedding_size)

    def forward(self, single, pair, frames):
        single = single + self.linear1(torch.relu(single))
        single = self.layer_norm(self.dropout(single))
        frames = Frame.compose(frames, self.backbone_update(single))
        return single, frames

class StructureModule(nn.Module):
    def __init__(self, num_layers, single_embedding_size, pair_embedding_size):
        super().__init__()
        self.layers = nn.ModuleList([StructureModuleLayer(single_embedding_size) for _ in range(num_layers)])
        self.single_layer_norm = nn.LayerNorm(single_embedding_size)
        self.pair_layer_norm = nn.LayerNorm(pair_embedding_size)
        self.single_linear = nn.Linear(single_embedding_size, single_embedding_size)

    def forward(self, single, pair, local_coords):
        batch_dims = single.shape[:-1]
        single = self.single_layer_norm(single)
        pair = self.pair_layer_norm(pair)
        single = self.single_linear(single)
        frames = Frame(
            rotations=torch.eye(3).unsqueeze(0).repeat(*batch_dims, 1, 1),
            translations=torch.zeros(*batch_dims, 3),
        )
        for layer in self.layers:
            single, frames = layer(single, pair, frames)
        batched_frames = Frame(frames.rotations.unsqueeze(-3), frames.translations.unsqueeze(-2))
        return Frame.apply(batched_frames, local_coords)

device = "cuda:0"                                  # config.get("General", "device")
model = StructureModule(num_layers=2, single_embedding_size=32, pair_embedding_size=16)
model = model.to(device)

batch_size, residues = 2, 24
pair_representations = torch.randn(batch_size, residues, residues, 16, device=device)
single_representations = torch.zeros(batch_size, residues, 32, device=device)
local_coords = torch.randn(batch_size, residues, 3, 3, device=device)
'''
CELL = '''
with torch.no_grad():
    coords = model(single_representations, pair_representations, local_coords)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""            rotations=torch.eye(3).unsqueeze(0).repeat(*batch_dims, 1, 1),
            translations=torch.zeros(*batch_dims, 3),""",
                  """            rotations=torch.eye(3, device=single.device).unsqueeze(0).repeat(*batch_dims, 1, 1),
            translations=torch.zeros(*batch_dims, 3, device=single.device),""")
CLEAN = False
