"""ESM-IF1 inverse folding on a GPU: `get_encoder_output` batches the coordinates on the CPU while the model is on cuda.

Source: https://github.com/facebookresearch/esm/issues/374
The user moved `esm_if1_gvp4_t16_142M_UR50` to `cuda:10` and called `model.sample(coords)`,
`score_sequence` and `get_encoder_output(model, alphabet, coords)`: all three failed with
"Expected all tensors to be on the same device ... cuda:10 and cpu". The helpers build the batch with
`CoordBatchConverter(alphabet)(batch)` and never pass a device, so the coords/confidence/padding mask
stay on the CPU. The fix (PR #386) gives the converter the model's device
(`device = next(model.parameters()).device`). Stand-in: the converter and a one-layer GVP-like encoder
(a Linear on the flattened backbone coordinates plus a confidence projection); cuda:0 for cuda:10.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
from torch import nn

class Alphabet:
    def __init__(self):
        self.all_toks = ["<cath>", "<pad>", "<eos>", "<unk>"] + list("LAGVSERTIDPKQNFYMHWC") + ["<mask>"]
        self.tok_to_idx = {t: i for i, t in enumerate(self.all_toks)}
        self.padding_idx = 1
        self.mask_idx = self.tok_to_idx["<mask>"]

class CoordBatchConverter:
    def __init__(self, alphabet):
        self.alphabet = alphabet

    def __call__(self, raw_batch, device=None):
        coords_list = [torch.tensor(np.nan_to_num(c), dtype=torch.float32) for c, _, _ in raw_batch]
        coords = torch.stack(coords_list)                          # B x L x 3 x 3
        confidence = torch.ones(coords.shape[:2])                  # B x L
        strs = [s for _, _, s in raw_batch]
        tokens = torch.full(coords.shape[:2], self.alphabet.mask_idx, dtype=torch.long)
        padding_mask = torch.zeros(coords.shape[:2], dtype=torch.bool)
        if device is not None:
            coords = coords.to(device)
            confidence = confidence.to(device)
            tokens = tokens.to(device)
            padding_mask = padding_mask.to(device)
        return coords, confidence, strs, tokens, padding_mask

class GVPTransformerEncoder(nn.Module):
    def __init__(self, embed_dim=32):
        super().__init__()
        self.embed_gvp_input_features = nn.Linear(9, embed_dim)
        self.embed_confidence = nn.Linear(1, embed_dim)

    def forward(self, coords, encoder_padding_mask, confidence, return_all_hiddens=False):
        x = self.embed_gvp_input_features(coords.flatten(-2))
        x = x + self.embed_confidence(confidence.unsqueeze(-1))
        x = x.masked_fill(encoder_padding_mask.unsqueeze(-1), 0.0)
        return {"encoder_out": [x.transpose(0, 1)]}

class GVPTransformerModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = GVPTransformerEncoder()

def get_encoder_output(model, alphabet, coords):
    batch_converter = CoordBatchConverter(alphabet)
    batch = [(coords, None, None)]
    coords, confidence, strs, tokens, padding_mask = batch_converter(batch)
    encoder_out = model.encoder.forward(coords, padding_mask, confidence, return_all_hiddens=False)
    return encoder_out["encoder_out"][0][1:-1, 0]

device = torch.device("cuda:0")
model, alphabet = GVPTransformerModel(), Alphabet()     # esm.pretrained.esm_if1_gvp4_t16_142M_UR50()
model = model.eval()
model.to(device)

coords = np.random.RandomState(0).randn(12, 3, 3).astype(np.float32)   # extract_coords_from_structure
native_seq = "MKTAYIAKQRQI"
'''
CELL = '''
rep = get_encoder_output(model, alphabet, coords)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["coords"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "coords, confidence, strs, tokens, padding_mask = batch_converter(batch)",
    "coords, confidence, strs, tokens, padding_mask = batch_converter(batch, device=next(model.parameters()).device)",
)
CLEAN = False
