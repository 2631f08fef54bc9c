"""Stanza's seq2seq beam search divides the flat top-k ids with `/`, so the back-pointers that reorder the LSTM (h, c) states are float.

Source: https://github.com/stanfordnlp/stanza/pull/406
"Need to explicitly integer divide in torch 1.6": `Beam.advance` computed the beam each top-k
score came from as `prevK = bestScoresId / numWords` (with `from __future__ import division`);
torch 1.6 refused the integer `/`, newer torch makes it a true (float) division, and the float
back-pointers then reach `index_select` when `update_state` reorders the decoder's hidden and cell
states. The PR makes it an integer division. Reduced: `Beam` is a stand-in for
stanza.models.common.beam.Beam (OpenNMT-derived), `update_state` is the helper of
Seq2SeqModel.predict; one sentence, beam 3, one decoder step on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-index"
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
        self.copy = []

    def get_current_state(self):
        return self.nextYs[-1]

    def get_current_origin(self):
        return self.prevKs[-1]

    def advance(self, wordLk, copy_indices=None):
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
        # bestScoresId is flattened beam x word array, so calculate which
        # word and beam each score came from
        prevK = bestScoresId / numWords
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
hn = torch.randn(beam_size * batch_size, hidden_dim)   # decoder LSTM state, repeated per beam
cn = torch.randn(beam_size * batch_size, hidden_dim)
log_probs = torch.log_softmax(torch.randn(batch_size, beam_size, vocab_size), dim=-1)
'''
CELL = '''
done = []
for b in range(batch_size):
    is_done = beam[b].advance(log_probs.data[b])
    if is_done:
        done += [b]
    update_state((hn, cn), b, beam[b].get_current_origin(), beam_size)
'''
EXPECT_ERROR = ("index_select(): Expected dtype int32 or int64 for index",
                "Expected dtype int32 or int64", "expected scalar type Long")
CULPRITS = ["beam[0]"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("prevK = bestScoresId / numWords", "prevK = bestScoresId // numWords")
CLEAN = False
