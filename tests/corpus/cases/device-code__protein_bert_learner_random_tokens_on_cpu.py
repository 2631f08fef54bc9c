"""protein-bert-pytorch's Learner draws its replacement tokens with torch.randint on the CPU.

Source: https://github.com/lucidrains/protein-bert-pytorch/pull/1
"bugFix: x and y not on the same device when Learner is trained on GPU": with `seq`, `annotation`
and `mask` on cuda and `learner.cuda()`, `loss = learner(seq, annotation, mask = mask)` failed at
`random_replace_token_prob_mask & (random_tokens != token_id)` - `random_tokens` came from
`torch.randint(...)` without a device. The PR creates it on the sequence's device. Stand-ins: the
masking part of `Learner.forward` and a tiny model; SIM meta stands for cpu vs cuda:0.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn

def prob_mask_like(t, prob):
    return torch.zeros_like(t).float().uniform_(0, 1) < prob

class ProteinBERTStandIn(nn.Module):
    def __init__(self, num_tokens=21, num_annotation=64, dim=32):
        super().__init__()
        self.num_tokens = num_tokens
        self.token_emb = nn.Embedding(num_tokens, dim)
        self.to_token_logits = nn.Linear(dim, num_tokens)
        self.to_annotation_logits = nn.Linear(dim, num_annotation)

    def forward(self, seq, annotation, mask=None):
        h = self.token_emb(seq)
        return self.to_token_logits(h), self.to_annotation_logits(h.mean(1))

class PretrainingWrapper(nn.Module):
    def __init__(self, model, random_replace_token_prob=0.05, exclude_token_ids=(0, 1, 2)):
        super().__init__()
        self.model = model
        self.random_replace_token_prob = random_replace_token_prob
        self.exclude_token_ids = exclude_token_ids

    def forward(self, seq, annotation, mask=None):
        batch_size, seq_len, device = *seq.shape, seq.device
        random_replace_token_prob_mask = prob_mask_like(seq, self.random_replace_token_prob)
        random_tokens = torch.randint(0, self.model.num_tokens, seq.shape)
        for token_id in self.exclude_token_ids:
            random_replace_token_prob_mask = random_replace_token_prob_mask & (random_tokens != token_id)
        noised_seq = torch.where(random_replace_token_prob_mask, random_tokens, seq)
        seq_logits, annotation_logits = self.model(noised_seq, annotation, mask=mask)
        return F.binary_cross_entropy_with_logits(annotation_logits, annotation)

device = torch.device("meta")   # the GPU (SIM meta: cpu and meta are the two devices)
model = ProteinBERTStandIn()
learner = PretrainingWrapper(model)
learner.to(device)
seq = torch.randint(0, 21, (2, 128)).to(device)
annotation = torch.randint(0, 1, (2, 64)).float().to(device)
mask = torch.ones(2, 128).bool().to(device)
'''
CELL = '''
loss = learner(seq, annotation, mask = mask)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["random_tokens"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("torch.randint(0, self.model.num_tokens, seq.shape)",
                  "torch.randint(0, self.model.num_tokens, seq.shape, device=device)")
CLEAN = False
