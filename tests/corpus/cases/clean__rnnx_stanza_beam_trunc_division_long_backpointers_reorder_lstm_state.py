"""Look-alike: Stanza's beam search divides the flat top-k ids with `torch.div(..., rounding_mode='trunc')`, so the back-pointers that reorder the LSTM (h, c) states stay int64.

Source: https://github.com/stanfordnlp/stanza/blob/master/stanza/models/common/beam.py
`Beam.advance` adds float log-probabilities to float beam scores, takes `topk` over the flattened
beam x vocabulary scores and splits the ids into `prevK = torch.div(bestScoresId, numWords,
rounding_mode='trunc')` and `bestScoresId - prevK * numWords`; `Seq2SeqModel.predict`'s
`update_state` then `index_select`s the decoder's hidden and cell states with those back-pointers.
Float scores next to integer indices, and an index_select driven by arithmetic on ids, look like
a dtype slip, but the ids stay int64 all the way. Reduced: one sentence, beam 3, two steps, CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
from __future__ import division
import torch

PAD_ID, SOS_ID, EOS_ID = 0, 2, 3

class Beam(object):
    """Stand-in for stanza.models.common.beam.Beam (adapted from OpenNMT)."""
    def __init__(self, size, cuda=False):
        self.size = size
        self.done = False
        self.tt = torch.cuda if cuda else torch
        self.scores = self.tt.FloatTensor(size).zero_()
        self.allScores = []
        self.prevKs = []
        self.nextYs = [self.tt.LongTensor(size).fill_(PAD_ID)]
        self.nextYs[0][0] = SOS_ID

    def get_current_state(self):
        return self.nextYs[-1]

    def get_current_origin(self):
        return self.prevKs[-1]

    def advance(self, wordLk):
        if self.done:
            return True
        numWords = wordLk.size(1)
        if len(self.prevKs) > 0:
            beamLk = wordLk + self.scores.unsqueeze(1).expand_as(wordLk)
        else:
            beamLk = wordLk[0]
        flatBeamLk = beamLk.view(-1)
        bestScores, bestScoresId = flatBeamLk.topk(self.size, 0, True, True)
        self.allScores.append(self.scores)
        self.scores = bestScores
        prevK = torch.div(bestScoresId, numWords, rounding_mode='trunc')
        self.prevKs.append(prevK)
        self.nextYs.append(bestScoresId - prevK * numWords)
        if self.nextYs[-1][0] == EOS_ID:
            self.done = True
            self.allScores.append(self.scores)
        return self.done

def update_state(states, idx, positions, beam_size):
    """ Select the states according to back pointers. """
    for e in states:
        br, d = e.size()
        s = e.contiguous().view(beam_size, br // beam_size, d)[:, idx]
        s.data.copy_(s.data.index_select(0, positions))

torch.manual_seed(0)
beam_size, batch_size, hidden_dim, vocab_size = 3, 1, 8, 20
beam = [Beam(beam_size) for _ in range(batch_size)]
hn = torch.randn(beam_size * batch_size, hidden_dim)
cn = torch.randn(beam_size * batch_size, hidden_dim)
step_log_probs = [torch.log_softmax(torch.randn(batch_size, beam_size, vocab_size), dim=-1)
                  for _ in range(2)]
'''
CELL = '''
for log_probs in step_log_probs:
    done = []
    for b in range(batch_size):
        is_done = beam[b].advance(log_probs.data[b])
        if is_done:
            done += [b]
        update_state((hn, cn), b, beam[b].get_current_origin(), beam_size)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
