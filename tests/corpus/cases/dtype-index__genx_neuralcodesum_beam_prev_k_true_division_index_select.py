"""NeuralCodeSum beam search: `prev_k = best_scores_id / num_words` is a float tensor under true division and `index_select` rejects it.

Source: https://github.com/wasiahmad/NeuralCodeSum/issues/16
Running `test.py` (beam-search decoding of code summaries) raised "index_select(): Expected dtype
int64 for index" at `self.attn.append(attn_out.index_select(0, prev_k))` in `c2nl/translator/beam.py`.
The maintainer: "The parameter to `index_select`, `prev_k` must be of type `torch.long`" and pasted the
lines computing it: `prev_k = best_scores_id / num_words`; on newer PyTorch `/` is true division and
returns float (floor division `//` keeps it long). Stand-in: the `Beam.advance` of the OpenNMT-style
translator, called as `translate_batch` does; CPU.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import torch

class Beam(object):
    def __init__(self, size, pad=0, bos=1, eos=2):
        self.size = size
        self.scores = torch.zeros(size)
        self.all_scores = []
        self.prev_ks = []
        self.next_ys = [torch.full((size,), pad, dtype=torch.long)]
        self.next_ys[0][0] = bos
        self.attn = []
        self._eos = eos

    def advance(self, word_probs, attn_out):
        num_words = word_probs.size(1)
        if len(self.prev_ks) > 0:
            beam_scores = word_probs + self.scores.unsqueeze(1).expand_as(word_probs)
        else:
            beam_scores = word_probs[0]
        flat_beam_scores = beam_scores.view(-1)
        best_scores, best_scores_id = flat_beam_scores.topk(self.size, 0, True, True)
        self.all_scores.append(self.scores)
        self.scores = best_scores
        # best_scores_id is flattened beam x word array, so calculate which
        # word and beam each score came from
        prev_k = best_scores_id / num_words
        self.prev_ks.append(prev_k)
        self.next_ys.append((best_scores_id - prev_k * num_words))
        self.attn.append(attn_out.index_select(0, prev_k))

beam_size, vocab, src_len = 4, 30, 12
b = Beam(beam_size)
out = torch.log_softmax(torch.randn(beam_size, vocab), dim=-1)
attn = torch.softmax(torch.randn(beam_size, src_len), dim=-1)
'''
CELL = '''
b.advance(out, attn)
'''
EXPECT_ERROR = "index"
CULPRITS = ["prev_k"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("prev_k = best_scores_id / num_words", "prev_k = best_scores_id // num_words")
CLEAN = False
