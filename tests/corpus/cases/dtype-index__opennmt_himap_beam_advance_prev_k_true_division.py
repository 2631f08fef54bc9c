"""OpenNMT-py 0.x (Hi_MAP fork) translation: `Beam.advance` computes `prev_k = best_scores_id / num_words`, a float under PyTorch >= 1.5.

Source: https://github.com/OpenNMT/OpenNMT-py/issues/1937
Running Hi_MAP's `translate.py` (an OpenNMT-py fork) on a newer PyTorch failed in
`onmt/translate/beam.py`, `self.attn.append(attn_out.index_select(0, prev_k))`: "expected scalar
type Long but found Float". `best_scores_id / num_words` became true division, so the back-pointer
`prev_k` is a float tensor; OpenNMT-py fixed it with floor division. Stand-in: the Beam class's
`advance` as in the old onmt, one sentence's decoder step as the translator feeds it.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import torch

class Beam(object):
    def __init__(self, size, pad, bos, eos, n_best=1, min_length=0):
        self.size = size
        self.tt = torch
        self.scores = self.tt.FloatTensor(size).zero_()
        self.all_scores = []
        self.prev_ks = []
        self.next_ys = [self.tt.LongTensor(size).fill_(pad)]
        self.next_ys[0][0] = bos
        self._eos = eos
        self.eos_top = False
        self.attn = []
        self.finished = []
        self.n_best = n_best
        self.min_length = min_length

    def get_current_state(self):
        return self.next_ys[-1]

    def advance(self, word_probs, attn_out):
        num_words = word_probs.size(1)
        cur_len = len(self.next_ys)
        if cur_len < self.min_length:
            for k in range(len(word_probs)):
                word_probs[k][self._eos] = -1e20
        if len(self.prev_ks) > 0:
            beam_scores = word_probs + self.scores.unsqueeze(1).expand_as(word_probs)
        else:
            beam_scores = word_probs[0]
        flat_beam_scores = beam_scores.view(-1)
        best_scores, best_scores_id = flat_beam_scores.topk(self.size, 0, True, True)
        self.all_scores.append(self.scores)
        self.scores = best_scores
        prev_k = best_scores_id / num_words
        self.prev_ks.append(prev_k)
        self.next_ys.append((best_scores_id - prev_k * num_words))
        self.attn.append(attn_out.index_select(0, prev_k))

beam_size, vocab_size, src_len = 4, 50, 12
beam = Beam(beam_size, pad=1, bos=2, eos=3, n_best=1, min_length=2)
torch.manual_seed(0)
out = torch.log_softmax(torch.randn(beam_size, vocab_size), dim=-1)     # generator output, one sentence
beam_attn = torch.softmax(torch.randn(beam_size, src_len), dim=-1)     # decoder attention for it
memory_length = 10
'''
CELL = '''
beam.advance(out, beam_attn[:, :memory_length])
'''
EXPECT_ERROR = ("index_select(): Expected dtype int32 or int64 for index", "expected scalar type Long",
                "Expected dtype int64 for index")
CULPRITS = ["beam"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("prev_k = best_scores_id / num_words", "prev_k = best_scores_id // num_words")
CLEAN = False
