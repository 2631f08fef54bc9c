"""KOBE beam search: `prevK = bestScoresId / numWords` is a float tensor under true division, then used as an `index_select` index.

Source: https://github.com/THUDM/KOBE/issues/36
Evaluating a trained KOBE (Transformer product-description generator) checkpoint with `--beam-size 10`
failed in `Beam.advance` at `self.attn.append(attnOut.index_select(0, prevK))` with
"index_select_out_cuda_impl" not implemented for 'Float'. As the reporter found, `prevK =
bestScoresId / numWords` is true division in recent PyTorch, so the back-pointers are floats; the
fix is floor division (`//`). Stand-in: KOBE's `Beam` class (n-gram blocking kept), `utils` constants,
run on the CPU (`cuda=False`).
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import types
import torch

utils = types.SimpleNamespace(PAD=0, BOS=1, EOS=2)

class Beam(object):
    def __init__(self, size, n_best=1, cuda=True, length_norm=False, minimum_length=0):
        self.size = size
        self.tt = torch.cuda if cuda else torch
        self.scores = self.tt.FloatTensor(size).zero_()
        self.allScores = []
        self.prevKs = []
        self.nextYs = [self.tt.LongTensor(size).fill_(utils.PAD)]
        self.nextYs[0][0] = utils.BOS
        self._eos = utils.EOS
        self.eosTop = False
        self.attn = []
        self.finished = []
        self.n_best = n_best
        self.length_norm = length_norm
        self.minimum_length = minimum_length

    def advance(self, wordLk, attnOut):
        numWords = wordLk.size(1)
        if len(self.prevKs) > 0:
            beamLk = wordLk + self.scores.unsqueeze(1).expand_as(wordLk)
            for i in range(self.nextYs[-1].size(0)):
                if self.nextYs[-1][i] == self._eos:
                    beamLk[i] = -1e20
        else:
            beamLk = wordLk[0]
        flatBeamLk = beamLk.view(-1)
        bestScores, bestScoresId = flatBeamLk.topk(self.size, 0, True, True)
        self.allScores.append(self.scores)
        self.scores = bestScores
        # bestScoresId is flattened beam x word array, so calculate which
        # word and beam each score came from
        prevK = bestScoresId / numWords
        self.prevKs.append(prevK)
        self.nextYs.append((bestScoresId - prevK * numWords))
        self.attn.append(attnOut.index_select(0, prevK))
        for i in range(self.nextYs[-1].size(0)):
            if self.nextYs[-1][i] == self._eos:
                s = self.scores[i]
                self.finished.append((s, len(self.nextYs) - 1, i))
        if self.nextYs[-1][0] == utils.EOS:
            self.allScores.append(self.scores)
            self.eosTop = True

beam_size, batch_size, vocab, src_len = 10, 2, 50, 7
beam = [Beam(beam_size, n_best=1, cuda=False, length_norm=True) for _ in range(batch_size)]
torch.manual_seed(0)
output = torch.log_softmax(torch.randn(batch_size, beam_size, vocab), dim=-1)   # decoder step, unbottled
attn = torch.softmax(torch.randn(batch_size, beam_size, src_len), dim=-1)
'''
CELL = '''
for j, b in enumerate(beam):
    b.advance(output[j, :], attn[j, :])  # batch index
'''
EXPECT_ERROR = ("for index", "not implemented for 'Float'")
CULPRITS = ["beam"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("prevK = bestScoresId / numWords", "prevK = bestScoresId // numWords")
CLEAN = False
