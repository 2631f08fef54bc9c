"""ESM-IF1 `get_encoder_output`: the backbone coordinates are batched straight onto the device of the model's parameters.

Source: https://github.com/facebookresearch/esm/blob/main/esm/inverse_folding/util.py
`esm.inverse_folding.util.get_encoder_output(model, alphabet, coords)` reads
`device = next(model.parameters()).device` and calls `CoordBatchConverter(alphabet)(batch,
device=device)`, which builds coords / confidence / tokens on the CPU from the numpy backbone and
moves them to that device before computing the padding and coordinate masks; the user passes a CPU
numpy array to a GPU model. Looks like a host array meeting a CUDA encoder, but the converter moves
it; it runs.
Stand-ins: `CoordBatchConverter` without the alphabet bookkeeping, a linear encoder over the flattened
backbone; `coords[:, :, 0, 0]` and the bos/eos trim are written with `narrow` (the simulator cannot
index fake GPU tensors).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

class CoordBatchConverter:
    def __init__(self, alphabet):
        self.alphabet = alphabet

    def __call__(self, raw_batch, device=None):
        coords = [F.pad(torch.tensor(cd, dtype=torch.float32), (0, 0, 0, 0, 1, 1), value=np.inf)
                  for cd, _, _ in raw_batch]
        confidence = [F.pad(torch.ones(len(cd)), (1, 1), value=-1.) for cd, _, _ in raw_batch]
        coords = torch.stack(coords)
        confidence = torch.stack(confidence)
        tokens = torch.full(confidence.shape, 3, dtype=torch.int64)
        strs = ["X" * len(cd) for cd, _, _ in raw_batch]
        if device is not None:
            coords = coords.to(device)
            confidence = confidence.to(device)
            tokens = tokens.to(device)
        padding_mask = torch.isnan(coords.narrow(2, 0, 1).narrow(3, 0, 1).flatten(2))   # coords[:,:,0,0]
        coord_mask = torch.isfinite(coords.sum(-2).sum(-1))
        confidence = confidence * coord_mask + (-1.) * padding_mask
        return coords, confidence, strs, tokens, padding_mask

class GVPTransformerEncoder(nn.Module):
    def __init__(self, embed_dim=32):
        super().__init__()
        self.embed = nn.Linear(9, embed_dim)
        self.embed_confidence = nn.Linear(1, embed_dim)

    def forward(self, coords, padding_mask, confidence, return_all_hiddens=False):
        coords = torch.nan_to_num(coords, nan=0.0, posinf=0.0).flatten(-2)
        x = self.embed(coords) + self.embed_confidence(confidence.unsqueeze(-1))
        return {"encoder_out": [x.transpose(0, 1)]}

class GVPTransformerModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = GVPTransformerEncoder()

def get_encoder_output(model, alphabet, coords):
    device = next(model.parameters()).device
    batch_converter = CoordBatchConverter(alphabet)
    batch = [(coords, None, None)]
    coords, confidence, strs, tokens, padding_mask = batch_converter(batch, device=device)
    encoder_out = model.encoder.forward(coords, padding_mask, confidence, return_all_hiddens=False)
    # remove beginning and end (bos and eos tokens)
    out = encoder_out["encoder_out"][0]
    return out.narrow(0, 1, out.shape[0] - 2).narrow(1, 0, 1).squeeze(1)   # [1:-1, 0]

model, alphabet = GVPTransformerModel(), object()
model = model.eval().to("cuda:0")
coords = np.random.randn(80, 3, 3).astype(np.float32)     # extract_coords_from_structure(structure)
'''
CELL = '''
with torch.no_grad():
    rep = get_encoder_output(model, alphabet, coords)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
