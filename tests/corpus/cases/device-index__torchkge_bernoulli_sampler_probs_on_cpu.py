"""TorchKGE BernoulliNegativeSampler: its per-relation probabilities stay on the CPU while the batch is on the GPU.

Source: https://github.com/torchkge-team/torchkge/pull/246
"I was not able to use CUDA with negative sampler as it was throwing error that indices should be
on the same device (CPU)". `BernoulliNegativeSampler.__init__` computes `self.bern_probs` (a CPU
float tensor, one entry per relation) and `corrupt_batch` indexes it with the batch's `relations`,
which the training loop moved to CUDA; the fix moved `self.bern_probs` to the batch's device.
Stand-in: the sampler (a plain object, not a Module) with the lookup written as `index_select`
(plain indexing of a CPU tensor by fake CUDA indices is not checked by the simulation).
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import torch
from torch import nn

class BernoulliNegativeSampler:
    def __init__(self, n_ent, n_rel, n_neg=1):
        self.n_ent, self.n_neg = n_ent, n_neg
        self.bern_probs = self.evaluate_probabilities(n_rel)

    def evaluate_probabilities(self, n_rel):
        tmp = [0.5 + 0.4 * ((i % 3) - 1) for i in range(n_rel)]
        return torch.tensor(tmp).float()

    def corrupt_batch(self, heads, tails, relations):
        device = heads.device
        probs = self.bern_probs.index_select(0, relations).repeat(self.n_neg)
        head_mask = probs > 0.5
        rand_ent = torch.randint(1, self.n_ent, heads.shape, device=device)
        neg_heads = torch.where(head_mask, rand_ent, heads)
        neg_tails = torch.where(head_mask, tails, rand_ent)
        return neg_heads.long(), neg_tails.long()

class TransEModel(nn.Module):
    def __init__(self, n_ent, n_rel, dim=16):
        super().__init__()
        self.ent_emb = nn.Embedding(n_ent, dim)
        self.rel_emb = nn.Embedding(n_rel, dim)

    def forward(self, h, t, nh, nt, r):
        pos = (self.ent_emb(h) + self.rel_emb(r) - self.ent_emb(t)).norm(dim=-1)
        neg = (self.ent_emb(nh) + self.rel_emb(r) - self.ent_emb(nt)).norm(dim=-1)
        return pos, neg

device = torch.device("cuda:0")
n_ent, n_rel = 50, 7
model = TransEModel(n_ent, n_rel).to(device)
sampler = BernoulliNegativeSampler(n_ent, n_rel)
heads = torch.randint(0, n_ent, (32,)).to(device)
tails = torch.randint(0, n_ent, (32,)).to(device)
rels = torch.randint(0, n_rel, (32,)).to(device)
'''
CELL = '''
neg_heads, neg_tails = sampler.corrupt_batch(heads, tails, rels)
pos, neg = model(heads, tails, neg_heads, neg_tails, rels)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["sampler.bern_probs"]
FIX = "namespace"
REFERENCE_FIX = '''
sampler.bern_probs = sampler.bern_probs.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
