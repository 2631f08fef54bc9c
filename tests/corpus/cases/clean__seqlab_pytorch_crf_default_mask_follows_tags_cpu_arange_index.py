"""Look-alike: pytorch-crf on the accelerator with no mask: the default mask is made with `ones_like(tags)`, `torch.arange` indexes from the CPU.

Source: https://github.com/kmkurn/pytorch-crf/blob/master/torchcrf/__init__.py
torchcrf's `CRF.forward` builds the missing mask with `torch.ones_like(tags, dtype=torch.uint8)`, so
it lands wherever `tags` is, and `_compute_score` indexes the emissions with a CPU
`torch.arange(batch_size)` next to GPU tag indices (CPU index tensors are allowed for a GPU tensor).
The maintainer in kmkurn/pytorch-crf#101: "Tensor `mask` is created in the same device as `tags`
because `torch.ones_like` is used." Model, tokens and tags all on the accelerator: correct, nothing
to report. Stand-in: CRF 0.7.2 reduced, a BiLSTM tagger; meta is the accelerator.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
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

class BiLSTMCRF(nn.Module):
    def __init__(self, vocab=300, emb=16, hidden=16, num_tags=9):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb)
        self.lstm = nn.LSTM(emb, hidden // 2, batch_first=True, bidirectional=True)
        self.hidden2tag = nn.Linear(hidden, num_tags)
        self.crf = CRF(num_tags, batch_first=True)

    def forward(self, tokens, tags):
        out, _ = self.lstm(self.embedding(tokens))
        emissions = self.hidden2tag(out)
        return -self.crf(emissions, tags, reduction="mean")

device = torch.device("meta")            # stands in for cuda
model = BiLSTMCRF().to(device)
tokens = torch.randint(1, 300, (8, 11)).to(device)
tags = torch.randint(0, 9, (8, 11)).to(device)
'''
CELL = '''
loss = model(tokens, tags)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
