"""Look-alike: SASRec.pytorch feeds numpy item sequences to a cuda model; `log2feats` builds every tensor from numpy and moves it to `self.dev`.

Source: https://github.com/pmixer/SASRec.pytorch/blob/master/python/model.py
`SASRec.log2feats(log_seqs)` takes the batch as numpy arrays: `self.item_emb(torch.LongTensor(log_seqs).to(self.dev))`,
positions from `np.tile(np.arange(...))` converted the same way, `timeline_mask =
torch.BoolTensor(log_seqs == 0).to(self.dev)` and a causal `attention_mask` built with `device=self.dev`.
CPU/numpy inputs next to a GPU model, all converted inside forward: runs (the "GPU" is meta here). Stand-in: the embedding part
and one block with the causal attention written as masked matmuls (no `nn.MultiheadAttention`).
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch

class SASRec(torch.nn.Module):
    def __init__(self, user_num, item_num, args):
        super().__init__()
        self.item_num, self.dev = item_num, args["device"]
        self.item_emb = torch.nn.Embedding(item_num + 1, args["hidden_units"], padding_idx=0)
        self.pos_emb = torch.nn.Embedding(args["maxlen"] + 1, args["hidden_units"], padding_idx=0)
        self.q = torch.nn.Linear(args["hidden_units"], args["hidden_units"])
        self.last_layernorm = torch.nn.LayerNorm(args["hidden_units"], eps=1e-8)

    def log2feats(self, log_seqs):
        seqs = self.item_emb(torch.LongTensor(log_seqs).to(self.dev))
        seqs *= self.item_emb.embedding_dim ** 0.5
        poss = np.tile(np.arange(1, log_seqs.shape[1] + 1), [log_seqs.shape[0], 1])
        poss *= (log_seqs != 0)
        seqs += self.pos_emb(torch.LongTensor(poss).to(self.dev))
        timeline_mask = torch.BoolTensor(log_seqs == 0).to(self.dev)
        seqs *= ~timeline_mask.unsqueeze(-1)
        tl = seqs.shape[1]
        attention_mask = ~torch.tril(torch.ones((tl, tl), dtype=torch.bool, device=self.dev))
        scores = self.q(seqs) @ seqs.transpose(1, 2)
        scores = scores.masked_fill(attention_mask, -1e9)
        seqs = seqs + torch.softmax(scores, dim=-1) @ seqs
        seqs *= ~timeline_mask.unsqueeze(-1)
        return self.last_layernorm(seqs)

    def forward(self, user_ids, log_seqs, pos_seqs, neg_seqs):
        log_feats = self.log2feats(log_seqs)
        pos_embs = self.item_emb(torch.LongTensor(pos_seqs).to(self.dev))
        neg_embs = self.item_emb(torch.LongTensor(neg_seqs).to(self.dev))
        return (log_feats * pos_embs).sum(dim=-1), (log_feats * neg_embs).sum(dim=-1)

args = {"device": "meta", "hidden_units": 16, "maxlen": 20}
model = SASRec(50, 200, args).to(args["device"])
u = np.arange(8)
seq = np.random.randint(0, 201, (8, 20)); seq[:, :5] = 0
pos = np.random.randint(1, 201, (8, 20))
neg = np.random.randint(1, 201, (8, 20))
'''
CELL = '''
pos_logits, neg_logits = model(u, seq, pos, neg)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
