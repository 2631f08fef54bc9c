"""Lite Transformer beam search on PyTorch >= 1.5: `torch.div(cand_indices, vocab_size, out=cand_beams)` into an int64 buffer.

Source: https://github.com/mit-han-lab/lite-transformer/pull/32
"change torch.div to torch.floor_divide": generation with the fairseq-derived SequenceGenerator
failed with "RuntimeError: result type Float can't be cast to the desired output type Long". The
candidate beam of each top-k entry is computed as `torch.div(cand_indices, self.vocab_size,
out=cand_beams)`; `cand_beams` is an int64 buffer, and since PyTorch 1.5 `torch.div` is true
division, whose float result cannot be written into it. The PR uses `torch.floor_divide`. Stand-in:
the first decoding step of SequenceGenerator with its lazily created buffers and a toy decoder.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch
from torch import nn

class ToyDecoder(nn.Module):
    def __init__(self, vocab_size=20, dim=16):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        self.out = nn.Linear(dim, vocab_size)

    def forward(self, prev_tokens):
        return torch.log_softmax(self.out(self.embed(prev_tokens).mean(1)), dim=-1)

class SequenceGenerator:
    """fairseq-style SequenceGenerator (as vendored in lite-transformer), first step only."""
    def __init__(self, vocab_size, beam_size=3, pad=1, eos=2):
        self.vocab_size = vocab_size
        self.beam_size = beam_size
        self.pad, self.eos = pad, eos

    @torch.no_grad()
    def generate(self, model, src_tokens):
        bsz, beam_size = src_tokens.size(0), self.beam_size
        cand_size = 2 * beam_size
        tokens = src_tokens.new_full((bsz * beam_size, 2), self.pad)
        tokens[:, 0] = self.eos
        scores = torch.zeros(bsz * beam_size, 2)
        buffers = {}

        def buffer(name, type_of=tokens):
            if name not in buffers:
                buffers[name] = type_of.new()
            return buffers[name]

        lprobs = model(tokens[:, :1])
        cand_scores = buffer("cand_scores", type_of=scores)
        cand_indices = buffer("cand_indices")
        cand_beams = buffer("cand_beams")
        torch.topk(
            lprobs.view(bsz, -1),
            k=min(cand_size, lprobs.view(bsz, -1).size(1) - 1),  # -1 so we never select pad
            out=(cand_scores, cand_indices),
        )
        torch.div(cand_indices, self.vocab_size, out=cand_beams)
        cand_indices.fmod_(self.vocab_size)
        return cand_scores, cand_indices, cand_beams

model = ToyDecoder().eval()
generator = SequenceGenerator(vocab_size=20)
src_tokens = torch.randint(3, 20, (2, 7))
'''
CELL = '''
cand_scores, cand_indices, cand_beams = generator.generate(model, src_tokens)
'''
EXPECT_ERROR = "result type Float can't be cast to the desired output type Long"
CULPRITS = ["cand_beams"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("torch.div(cand_indices, self.vocab_size, out=cand_beams)",
                  "torch.floor_divide(cand_indices, self.vocab_size, out=cand_beams)")
CLEAN = False
