"""Casanovo's beam search writes fp16 decoder scores into a float32 `scores` buffer under 16-mixed precision.

Source: https://github.com/Noble-Lab/casanovo/issues/508
With `precision: 16-mixed`, `casanovo sequence` failed in `beam_search_decode` at
`scores[active_beams, : step + 2, :] = active_scores`: "Index put requires the source and
destination dtypes match, got Float for the destination and Half for the source". `scores` is
allocated in float32 before decoding, while the decoder run under autocast returns fp16; the fix
casts the decoder output with `.to(scores.dtype)`. Stand-in: one decoding step of the model, with
CPU autocast to fp16 in place of Lightning's 16-mixed.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch
from torch import nn

class SpectrumDecoder(nn.Module):
    def __init__(self, vocab_size=12, dim=16):
        super().__init__()
        self.aa_encoder = nn.Embedding(vocab_size, dim)
        self.final = nn.Linear(dim, vocab_size)

    def forward(self, tokens, memory):
        return self.final(self.aa_encoder(tokens) + memory.mean(dim=1, keepdim=True))

class Spec2Pep(nn.Module):
    def __init__(self, vocab_size=12, dim=16, max_length=6, n_beams=2):
        super().__init__()
        self.vocab_size = vocab_size
        self.max_length = max_length
        self.n_beams = n_beams
        self.encoder = nn.Linear(2, dim)
        self.decoder = SpectrumDecoder(vocab_size, dim)

    def beam_search_decode(self, spectra, step=1):
        memories = self.encoder(spectra)
        batch = spectra.shape[0] * self.n_beams
        memories = memories.repeat_interleave(self.n_beams, dim=0)
        scores = torch.zeros(batch, self.max_length + 1, self.vocab_size)
        tokens = torch.zeros(batch, self.max_length, dtype=torch.long)
        finished_beams = torch.zeros(batch, dtype=torch.bool)
        active_beams = ~finished_beams
        active_tokens = tokens[active_beams, : step + 2]
        active_memories = memories[active_beams]
        active_scores = self.decoder(active_tokens, active_memories)
        scores[active_beams, : step + 2, :] = active_scores
        return tokens, scores

model = Spec2Pep().eval()
spectra = torch.randn(3, 10, 2)
'''
CELL = '''
with torch.no_grad(), torch.autocast("cpu", dtype=torch.float16):
    tokens, scores = model.beam_search_decode(spectra)
'''
EXPECT_ERROR = "Index put requires the source and destination dtypes match"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "active_scores = self.decoder(active_tokens, active_memories)",
    "active_scores = self.decoder(active_tokens, active_memories).to(scores.dtype)",
)
CLEAN = False
