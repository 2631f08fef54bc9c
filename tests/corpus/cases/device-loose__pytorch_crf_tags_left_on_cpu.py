"""A BiLSTM-CRF tagger on the GPU gets its gold tags from the CPU; the CRF's default mask follows them.

Source: https://github.com/kmkurn/pytorch-crf/pull/101
The user patched `torchcrf` ("mask tensor should be on cuda also") after the CRF loss failed on the
GPU. The maintainer: "have you checked that `tags` has been moved to GPU? Tensor `mask` is created in
the same device as `tags` because `torch.ones_like` is used." User: "that is my problem." Emissions
and the CRF were on the GPU, `tags` was not, so `mask[i]` (CPU) met the GPU scores. Stand-in: the
CRF's forward/_compute_score/_compute_normalizer structure, a small embedding+LSTM tagger; meta is
the accelerator (meta's message: "Tensor on device cpu is not on the expected device meta!").
"""

SIM = "meta"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn

class CRF(nn.Module):
    def __init__(self, num_tags, batch_first=False):
        super().__init__()
        self.num_tags, self.batch_first = num_tags, batch_first
        self.start_transitions = nn.Parameter(torch.empty(num_tags).uniform_(-0.1, 0.1))
        self.end_transitions = nn.Parameter(torch.empty(num_tags).uniform_(-0.1, 0.1))
        self.transitions = nn.Parameter(torch.empty(num_tags, num_tags).uniform_(-0.1, 0.1))

    def forward(self, emissions, tags, mask=None, reduction="sum"):
        if mask is None:
            mask = torch.ones_like(tags, dtype=torch.uint8)
        if self.batch_first:
            emissions, tags, mask = emissions.transpose(0, 1), tags.transpose(0, 1), mask.transpose(0, 1)
        numerator = self._compute_score(emissions, tags, mask)
        denominator = self._compute_normalizer(emissions, mask)
        return (numerator - denominator).sum()

    def _compute_score(self, emissions, tags, mask):
        seq_length, batch_size = tags.shape
        mask = mask.float()
        score = self.start_transitions[tags[0]]
        score = score + emissions[0, torch.arange(batch_size), tags[0]]
        for i in range(1, seq_length):
            score = score + self.transitions[tags[i - 1], tags[i]] * mask[i]
            score = score + emissions[i, torch.arange(batch_size), tags[i]] * mask[i]
        seq_ends = mask.long().sum(dim=0) - 1
        last_tags = tags[seq_ends, torch.arange(batch_size)]
        return score + self.end_transitions[last_tags]

    def _compute_normalizer(self, emissions, mask):
        score = self.start_transitions + emissions[0]
        for i in range(1, emissions.size(0)):
            next_score = torch.logsumexp(score.unsqueeze(2) + self.transitions + emissions[i].unsqueeze(1), dim=1)
            score = torch.where(mask[i].unsqueeze(1).bool(), next_score, score)
        return torch.logsumexp(score + self.end_transitions, dim=1)

class BiLSTMTagger(nn.Module):
    def __init__(self, vocab_size=50, emb=16, hidden=16, num_tags=5):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb)
        self.lstm = nn.LSTM(emb, hidden // 2, batch_first=True, bidirectional=True)
        self.hidden2tag = nn.Linear(hidden, num_tags)
        self.crf = CRF(num_tags, batch_first=True)

    def forward(self, tokens):
        out, _ = self.lstm(self.embedding(tokens))
        return self.hidden2tag(out)

device = torch.device("meta")        # stands in for cuda:0
model = BiLSTMTagger().to(device)
tokens = torch.randint(0, 50, (2, 7)).to(device)
tags = torch.randint(0, 5, (2, 7))
'''
CELL = '''
emissions = model(tokens)
loss = -model.crf(emissions, tags)
'''
EXPECT_ERROR = "is not on the expected device"
CULPRITS = ["tags"]
FIX = "namespace"
REFERENCE_FIX = '''
tags = tags.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
