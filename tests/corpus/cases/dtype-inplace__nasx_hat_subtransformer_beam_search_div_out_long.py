"""HAT (Hardware-Aware Transformers): evaluating an inherited SubTransformer fails in beam search, `torch.div(..., out=LongTensor)`.

Source: https://github.com/mit-han-lab/hardware-aware-transformers/issues/7
Testing a SubTransformer inherited from the downloaded SuperTransformer with the provided config
(`generate.py`) failed with "RuntimeError: result type Float can't be cast to the desired output
type Long" (and then a ZeroDivisionError because nothing was generated). HAT's bundled fairseq
`BeamSearch.step` computes the beam ids with `torch.div(self.indices_buf, vocab_size,
out=self.beams_buf)`: with the user's newer PyTorch, `torch.div` is true division and returns
float, which cannot be written into the LongTensor `beams_buf`. The maintainer's fix, which the
user confirmed, replaces line 81 with `self.beams_buf = torch.div(self.indices_buf,
vocab_size).type_as(self.beams_buf)`.
Stand-ins: fairseq's `Dictionary` (pad/unk/eos), HAT's `Search`/`BeamSearch` as shipped, and a
`SequenceGenerator` that runs a few beam steps over a tiny decoder that plays the SubTransformer.
CPU: dtype bug only.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

class Dictionary:
    def __init__(self, symbols):
        self.symbols = ["<s>", "<pad>", "</s>", "<unk>"] + symbols
    def pad(self):
        return 1
    def eos(self):
        return 2
    def unk(self):
        return 3
    def __len__(self):
        return len(self.symbols)

class Search(object):
    def __init__(self, tgt_dict):
        self.pad = tgt_dict.pad()
        self.unk = tgt_dict.unk()
        self.eos = tgt_dict.eos()
        self.vocab_size = len(tgt_dict)
        self.scores_buf = None
        self.indices_buf = None
        self.beams_buf = None

    def _init_buffers(self, t):
        if self.scores_buf is None:
            self.scores_buf = t.new()
            self.indices_buf = torch.LongTensor().to(device=t.device)
            self.beams_buf = torch.LongTensor().to(device=t.device)

class BeamSearch(Search):
    def __init__(self, tgt_dict):
        super().__init__(tgt_dict)

    def step(self, step, lprobs, scores):
        super()._init_buffers(lprobs)
        bsz, beam_size, vocab_size = lprobs.size()
        if step == 0:
            lprobs = lprobs[:, ::beam_size, :].contiguous()
        else:
            lprobs.add_(scores[:, :, step - 1].unsqueeze(-1))
        torch.topk(
            lprobs.view(bsz, -1),
            k=min(beam_size * 2, lprobs.view(bsz, -1).size(1) - 1),
            out=(self.scores_buf, self.indices_buf),
        )
        torch.div(self.indices_buf, vocab_size, out=self.beams_buf)
        self.indices_buf.fmod_(vocab_size)
        return self.scores_buf, self.indices_buf, self.beams_buf

class SubTransformerDecoder(nn.Module):
    """Tiny stand-in for the inherited SubTransformer's decoder (last-token log-probs)."""
    def __init__(self, vocab_size, embed_dim=16):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, embed_dim, padding_idx=1)
        self.fc = nn.Linear(embed_dim, embed_dim)
        self.output_projection = nn.Linear(embed_dim, vocab_size)
    def forward(self, prev_tokens, encoder_out):
        x = self.embed_tokens(prev_tokens).mean(1) + encoder_out
        return F.log_softmax(self.output_projection(torch.tanh(self.fc(x))), dim=-1)

class SequenceGenerator:
    def __init__(self, tgt_dict, beam_size=4, max_len_b=3):
        self.vocab_size = len(tgt_dict)
        self.eos = tgt_dict.eos()
        self.beam_size = beam_size
        self.max_len_b = max_len_b
        self.search = BeamSearch(tgt_dict)

    @torch.no_grad()
    def generate(self, models, sample):
        model = models[0]
        encoder_out = sample["net_input"]["src_feats"]
        bsz = encoder_out.size(0)
        beam = self.beam_size
        encoder_out = encoder_out.repeat_interleave(beam, 0)
        tokens = torch.full((bsz * beam, 1), self.eos, dtype=torch.long)
        scores = torch.zeros(bsz, beam, self.max_len_b)
        for step in range(self.max_len_b):
            lprobs = model(tokens, encoder_out)
            cand_scores, cand_indices, cand_beams = self.search.step(
                step, lprobs.view(bsz, -1, self.vocab_size), scores.clone())
            cand_beams = cand_beams[:, :beam] + torch.arange(bsz).unsqueeze(1) * beam
            tokens = torch.cat([tokens[cand_beams.view(-1)], cand_indices[:, :beam].reshape(-1, 1)], 1)
            scores[:, :, step] = cand_scores[:, :beam]
        return [[{"tokens": tokens[i * beam], "score": scores[i, 0, -1]}] for i in range(bsz)]

tgt_dict = Dictionary(["die", "das", "ist", "ein", "Haus", "gut", "nicht", "und"])
model = SubTransformerDecoder(len(tgt_dict))
model.eval()
models = [model]
generator = SequenceGenerator(tgt_dict, beam_size=4, max_len_b=3)
sample = {"id": torch.arange(2), "net_input": {"src_feats": torch.randn(2, 16)}}
'''
CELL = '''
hypos = generator.generate(models, sample)
'''
EXPECT_ERROR = "can't be cast to the desired output type Long"
CULPRITS = ["generator.search"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("torch.div(self.indices_buf, vocab_size, out=self.beams_buf)",
                  "self.beams_buf = torch.div(self.indices_buf, vocab_size).type_as(self.beams_buf)")
CLEAN = False
