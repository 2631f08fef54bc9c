"""pytorch-crf loss on a batch whose gold tags are uint8: `start_transitions[tags[0]]` reads them as a mask.

Source: https://github.com/kmkurn/pytorch-crf/issues/65
"Error in _compute_score when working with a batch": `score = self.start_transitions[tags[0]]` raised
"IndexError: The shape of the mask [32] at index 0 does not match the shape of the indexed tensor
[21] at index 0" (batch 32, 21 tags). Answer (confirmed by the reporter): "my `tags` had `dtype`
`torch.uint8` that leads to unintended behaviour with the indexing. Once I switched the `dtype` of
`tags` to `torch.long` ... it worked." Stand-in: torchcrf.CRF's forward/_compute_score/
_compute_normalizer; the labels come from a uint8 numpy array, as small label ids often do.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class CRF(nn.Module):
    """torchcrf.CRF (0.7.2), reduced."""
    def __init__(self, num_tags, batch_first=False):
        super().__init__()
        self.num_tags = num_tags
        self.batch_first = batch_first
        self.start_transitions = nn.Parameter(torch.empty(num_tags))
        self.end_transitions = nn.Parameter(torch.empty(num_tags))
        self.transitions = nn.Parameter(torch.empty(num_tags, num_tags))
        nn.init.uniform_(self.start_transitions, -0.1, 0.1)
        nn.init.uniform_(self.end_transitions, -0.1, 0.1)
        nn.init.uniform_(self.transitions, -0.1, 0.1)

    def forward(self, emissions, tags, mask=None, reduction="sum"):
        if mask is None:
            mask = torch.ones_like(tags, dtype=torch.uint8)
        if self.batch_first:
            emissions = emissions.transpose(0, 1)
            tags = tags.transpose(0, 1)
            mask = mask.transpose(0, 1)
        numerator = self._compute_score(emissions, tags, mask)
        denominator = self._compute_normalizer(emissions, mask)
        llh = numerator - denominator
        if reduction == "sum":
            return llh.sum()
        return llh.mean()

    def _compute_score(self, emissions, tags, mask):
        seq_length, batch_size = tags.shape
        mask = mask.float()
        score = self.start_transitions[tags[0]]
        score += emissions[0, torch.arange(batch_size), tags[0]]
        for i in range(1, seq_length):
            score += self.transitions[tags[i - 1], tags[i]] * mask[i]
            score += emissions[i, torch.arange(batch_size), tags[i]] * mask[i]
        seq_ends = mask.long().sum(dim=0) - 1
        last_tags = tags[seq_ends, torch.arange(batch_size)]
        score += self.end_transitions[last_tags]
        return score

    def _compute_normalizer(self, emissions, mask):
        seq_length = emissions.size(0)
        score = self.start_transitions + emissions[0]
        for i in range(1, seq_length):
            next_score = torch.logsumexp(score.unsqueeze(2) + self.transitions + emissions[i].unsqueeze(1), dim=1)
            score = torch.where(mask[i].unsqueeze(1).bool(), next_score, score)
        score += self.end_transitions
        return torch.logsumexp(score, dim=1)

class Tagger(nn.Module):
    def __init__(self, vocab=500, emb=32, hidden=32, num_tags=21):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb)
        self.lstm = nn.LSTM(emb, hidden // 2, batch_first=True, bidirectional=True)
        self.hidden2tag = nn.Linear(hidden, num_tags)
        self.crf = CRF(num_tags, batch_first=True)

    def forward(self, tokens):
        out, _ = self.lstm(self.embedding(tokens))
        return self.hidden2tag(out)

model = Tagger()
rng = np.random.default_rng(0)
token_ids = rng.integers(1, 500, size=(32, 12))
label_ids = rng.integers(0, 21, size=(32, 12)).astype(np.uint8)    # 21 tags fit in a byte
tokens = torch.from_numpy(token_ids)
tags = torch.from_numpy(label_ids)
'''
CELL = '''
emissions = model(tokens)
loss = -model.crf(emissions, tags, reduction="mean")
'''
EXPECT_ERROR = "The shape of the mask [32] at index 0 does not match the shape of the indexed tensor [21]"
CULPRITS = ["tags"]
FIX = "namespace"
REFERENCE_FIX = '''
tags = tags.long()
'''
REFERENCE_EDIT = None
CLEAN = False
