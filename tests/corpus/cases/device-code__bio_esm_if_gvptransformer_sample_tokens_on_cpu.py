"""ESM-IF1 `model.sample(coords)` on a GPU: `GVPTransformer.sample` builds `sampled_tokens` on the CPU.

Source: https://github.com/facebookresearch/esm/issues/487
Running examples/inverse_folding/sample_sequences.py after "Transferred model to GPU" failed at
"Sampling.. (1 of 3)" with "Expected all tensors to be on the same device ... cuda:0 and cpu!".
The coordinates were batched on the model's device, but `sample` still made the token buffer
`sampled_tokens` (and read the decoder from it) without a device; PR #488 moves it to the model's
device. Stand-in: the batch converter, a one-layer encoder and a decoder whose token embedding output
is mixed with the encoder output (index_select on fake cuda does not check devices, the add does).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
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
        coords = torch.stack([torch.as_tensor(c, dtype=torch.float32) for c, _, _ in raw_batch])
        padding_mask = torch.zeros(coords.shape[:2], dtype=torch.bool)
        if device is not None:
            coords, padding_mask = coords.to(device), padding_mask.to(device)
        return coords, padding_mask

class GVPEncoder(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.proj = nn.Linear(9, dim)
    def forward(self, coords, padding_mask):
        return self.proj(coords.flatten(-2))

class TransformerDecoder(nn.Module):
    def __init__(self, vocab=25, dim=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.output_projection = nn.Linear(dim, vocab)
    def forward(self, prev_output_tokens, encoder_out):
        x = self.embed_tokens(prev_output_tokens)
        x = x + encoder_out[:, : x.shape[1]].mean(1, keepdim=True)
        return self.output_projection(x)

class GVPTransformerModel(nn.Module):
    def __init__(self, alphabet):
        super().__init__()
        self.alphabet = alphabet
        self.encoder = GVPEncoder()
        self.decoder = TransformerDecoder(len(alphabet.all_toks))

    def sample(self, coords, partial_seq=None, temperature=1.0, confidence=None, device=None):
        L = len(coords)
        batch_converter = CoordBatchConverter(self.alphabet)
        batch_coords, padding_mask = batch_converter([(coords, confidence, None)], device=device)
        sampled_tokens = torch.full((1, 1 + L), self.alphabet.mask_idx, dtype=torch.long)
        sampled_tokens[0, 0] = self.alphabet.tok_to_idx["<cath>"]
        encoder_out = self.encoder(batch_coords, padding_mask)
        logits = self.decoder(sampled_tokens, encoder_out)
        return logits.argmax(-1)

device = torch.device("cuda:0")
alphabet = Alphabet()
model = GVPTransformerModel(alphabet).eval()
model = model.to(device)
print("Transferred model to GPU")
coords = torch.randn(40, 3, 3)          # N, CA, C backbone from 5YH2 chain C
'''
CELL = '''
sampled_seq = model.sample(coords, temperature=1.0, device=device)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["sampled_tokens"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        encoder_out = self.encoder(batch_coords, padding_mask)\n",
                  "        encoder_out = self.encoder(batch_coords, padding_mask)\n        sampled_tokens = sampled_tokens.to(device)\n")
CLEAN = False
