"""Look-alike: allennlp's ConditionalRandomField on the accelerator: a CPU-built constraint mask kept as a frozen Parameter, a missing mask made on `inputs.device`.

Source: https://github.com/allenai/allennlp/blob/main/allennlp/modules/conditional_random_field/conditional_random_field.py
`ConditionalRandomField.__init__` builds `constraint_mask = torch.full(...)` on the CPU from the
BIO `allowed_transitions` and stores it as `torch.nn.Parameter(constraint_mask, requires_grad=False)`,
so `Module.to()` moves it with the transitions; `forward` makes a missing mask with
`torch.ones(*tags.size(), dtype=torch.bool, device=inputs.device)` and starts the score from a
Python `0.0` when start/end transitions are off. A CRF tagger on the accelerator with a CPU-born
mask that travels with it: nothing to report. Stand-in: the module's forward/_input_likelihood/
_joint_likelihood (allennlp 2.10) and `util.logsumexp`; meta is the accelerator.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import types
from typing import List, Tuple
import torch
import torch.nn as nn

def logsumexp(tensor, dim=-1, keepdim=False):
    """allennlp.nn.util.logsumexp"""
    max_score, _ = tensor.max(dim, keepdim=keepdim)
    if keepdim:
        stable_vec = tensor - max_score
    else:
        stable_vec = tensor - max_score.unsqueeze(dim)
    return max_score + (stable_vec.exp().sum(dim, keepdim=keepdim)).log()

util = types.SimpleNamespace(logsumexp=logsumexp)

def allowed_bio_transitions(labels):
    """allennlp allowed_transitions('BIO', ...), reduced (start = n, end = n + 1)."""
    n = len(labels)
    items = list(labels.items()) + [(n, "START"), (n + 1, "END")]
    allowed = []
    for i, frm in items:
        for j, to in items:
            if frm == "END" or to == "START":
                continue
            if to.startswith("I-") and not (frm in ("B-" + to[2:], to)):
                continue
            allowed.append((i, j))
    return allowed

class ConditionalRandomField(nn.Module):
    def __init__(self, num_tags: int, constraints: List[Tuple[int, int]] = None,
                 include_start_end_transitions: bool = True) -> None:
        super().__init__()
        self.num_tags = num_tags
        self.transitions = nn.Parameter(torch.empty(num_tags, num_tags))
        if constraints is None:
            constraint_mask = torch.full((num_tags + 2, num_tags + 2), 1.0)
        else:
            constraint_mask = torch.full((num_tags + 2, num_tags + 2), 0.0)
            for i, j in constraints:
                constraint_mask[i, j] = 1.0
        self._constraint_mask = nn.Parameter(constraint_mask, requires_grad=False)
        self.include_start_end_transitions = include_start_end_transitions
        if include_start_end_transitions:
            self.start_transitions = nn.Parameter(torch.Tensor(num_tags))
            self.end_transitions = nn.Parameter(torch.Tensor(num_tags))
        self.reset_parameters()

    def reset_parameters(self):
        nn.init.xavier_normal_(self.transitions)
        if self.include_start_end_transitions:
            nn.init.normal_(self.start_transitions)
            nn.init.normal_(self.end_transitions)

    def _input_likelihood(self, logits, transitions, mask):
        batch_size, sequence_length, num_tags = logits.size()
        mask = mask.transpose(0, 1).contiguous()
        logits = logits.transpose(0, 1).contiguous()
        if self.include_start_end_transitions:
            alpha = self.start_transitions.view(1, num_tags) + logits[0]
        else:
            alpha = logits[0]
        for i in range(1, sequence_length):
            emit_scores = logits[i].view(batch_size, 1, num_tags)
            transition_scores = transitions.view(1, num_tags, num_tags)
            broadcast_alpha = alpha.view(batch_size, num_tags, 1)
            inner = broadcast_alpha + emit_scores + transition_scores
            alpha = util.logsumexp(inner, 1) * mask[i].view(batch_size, 1) + alpha * (
                ~mask[i]
            ).view(batch_size, 1)
        if self.include_start_end_transitions:
            stops = alpha + self.end_transitions.view(1, num_tags)
        else:
            stops = alpha
        return util.logsumexp(stops)

    def _joint_likelihood(self, logits, transitions, tags, mask):
        batch_size, sequence_length, _ = logits.data.shape
        logits = logits.transpose(0, 1).contiguous()
        mask = mask.transpose(0, 1).contiguous()
        tags = tags.transpose(0, 1).contiguous()
        if self.include_start_end_transitions:
            score = self.start_transitions.index_select(0, tags[0])
        else:
            score = 0.0
        for i in range(sequence_length - 1):
            current_tag, next_tag = tags[i], tags[i + 1]
            transition_score = transitions[current_tag.view(-1), next_tag.view(-1)]
            emit_score = logits[i].gather(1, current_tag.view(batch_size, 1)).squeeze(1)
            score = score + transition_score * mask[i + 1] + emit_score * mask[i]
        last_tag_index = mask.sum(0).long() - 1
        last_tags = tags.gather(0, last_tag_index.view(1, batch_size)).squeeze(0)
        if self.include_start_end_transitions:
            last_transition_score = self.end_transitions.index_select(0, last_tags)
        else:
            last_transition_score = 0.0
        last_inputs = logits[-1]
        last_input_score = last_inputs.gather(1, last_tags.view(-1, 1))
        last_input_score = last_input_score.squeeze()
        score = score + last_transition_score + last_input_score * mask[-1]
        return score

    def forward(self, inputs, tags, mask=None):
        if mask is None:
            mask = torch.ones(*tags.size(), dtype=torch.bool, device=inputs.device)
        else:
            mask = mask.to(torch.bool)
        log_denominator = self._input_likelihood(inputs, self.transitions, mask)
        log_numerator = self._joint_likelihood(inputs, self.transitions, tags, mask)
        return torch.sum(log_numerator - log_denominator)

class CrfTagger(nn.Module):
    def __init__(self, labels, vocab=200, dim=16):
        super().__init__()
        self.embedder = nn.Embedding(vocab, dim)
        self.encoder = nn.LSTM(dim, dim // 2, batch_first=True, bidirectional=True)
        self.tag_projection_layer = nn.Linear(dim, len(labels))
        self.crf = ConditionalRandomField(len(labels), constraints=allowed_bio_transitions(labels),
                                          include_start_end_transitions=False)

    def forward(self, tokens, tags):
        encoded, _ = self.encoder(self.embedder(tokens))
        logits = self.tag_projection_layer(encoded)
        return {"logits": logits, "loss": -self.crf(logits, tags)}

labels = {0: "O", 1: "B-PER", 2: "I-PER", 3: "B-LOC", 4: "I-LOC"}
device = torch.device("meta")             # stands in for cuda
model = CrfTagger(labels).to(device)
tokens = torch.randint(1, 200, (4, 10)).to(device)
tags = torch.randint(0, 5, (4, 10)).to(device)
'''
CELL = '''
output = model(tokens, tags)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
