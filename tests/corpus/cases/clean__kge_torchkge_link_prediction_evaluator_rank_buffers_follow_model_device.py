"""TorchKGE LinkPredictionEvaluator: rank buffers are built on the CPU, moved to the GPU for evaluation and back.

Source: https://github.com/torchkge-team/torchkge/blob/master/torchkge/evaluation/link_prediction.py
`LinkPredictionEvaluator.__init__` allocates `rank_true_heads`/`rank_true_tails` (and filtered
variants) with `torch.empty(...)` on the CPU even when the model sits on the GPU; `evaluate()`
checks `next(self.model.parameters()).is_cuda`, moves the buffers to the GPU, fills them batch by
batch from `model.lp_helper`, and moves them back to the CPU for the metric methods. CPU buffers
on an evaluator of a cuda:0 model, before and after evaluation, are by design. Look-alike: it runs.
Stand-in: the evaluator's `__init__`/`evaluate`, a TransE model with a reduced `lp_helper`
(unfiltered ranks only) and the GPU dataloader's batches; `.cuda()` is written
`.to(device)` and the slice assignment `buf[i*b:(i+1)*b] = rk` as `index_copy_` (the simulation
supports neither an unindexed `.cuda()` nor slicing fake cuda tensors).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import empty, nn


class TransEModel(nn.Module):
    def __init__(self, emb_dim, n_entities, n_relations):
        super().__init__()
        self.n_ent = n_entities
        self.ent_emb = nn.Embedding(n_entities, emb_dim)
        self.rel_emb = nn.Embedding(n_relations, emb_dim)

    def lp_helper(self, h_idx, t_idx, r_idx, kg):
        h, t, r = self.ent_emb(h_idx), self.ent_emb(t_idx), self.rel_emb(r_idx)
        candidates = self.ent_emb.weight                                  # all entities
        tail_scores = -torch.cdist(h + r, candidates, p=2)                # (b, n_ent)
        head_scores = -torch.cdist(t - r, candidates, p=2)
        true_t = -torch.norm(h + r - t, p=2, dim=-1, keepdim=True)
        true_h = true_t
        rk_true_t = (tail_scores >= true_t).sum(dim=1)
        rk_true_h = (head_scores >= true_h).sum(dim=1)
        return rk_true_t, rk_true_t, rk_true_h, rk_true_h


class KnowledgeGraph:
    def __init__(self, head_idx, tail_idx, relations):
        self.head_idx, self.tail_idx, self.relations = head_idx, tail_idx, relations
        self.n_facts = head_idx.shape[0]


class LinkPredictionEvaluator(object):
    def __init__(self, model, knowledge_graph):
        self.model = model
        self.kg = knowledge_graph
        self.rank_true_heads = empty(size=(knowledge_graph.n_facts,)).long()
        self.rank_true_tails = empty(size=(knowledge_graph.n_facts,)).long()
        self.filt_rank_true_heads = empty(size=(knowledge_graph.n_facts,)).long()
        self.filt_rank_true_tails = empty(size=(knowledge_graph.n_facts,)).long()
        self.evaluated = False

    def _batches(self, b_size, device):
        # DataLoader(self.kg, batch_size=b_size, use_cuda='batch')
        for h, t, r in zip(self.kg.head_idx.split(b_size), self.kg.tail_idx.split(b_size),
                           self.kg.relations.split(b_size)):
            yield h.to(device), t.to(device), r.to(device)

    def evaluate(self, b_size, verbose=True):
        use_cuda = next(self.model.parameters()).is_cuda
        device = next(self.model.parameters()).device
        if use_cuda:
            self.rank_true_heads = self.rank_true_heads.to(device)
            self.rank_true_tails = self.rank_true_tails.to(device)
            self.filt_rank_true_heads = self.filt_rank_true_heads.to(device)
            self.filt_rank_true_tails = self.filt_rank_true_tails.to(device)

        for i, batch in enumerate(self._batches(b_size, device)):
            h_idx, t_idx, r_idx = batch[0], batch[1], batch[2]
            rk_true_t, f_rk_true_t, rk_true_h, f_rk_true_h = self.model.lp_helper(h_idx, t_idx, r_idx, self.kg)
            rows = torch.arange(i * b_size, i * b_size + h_idx.shape[0], device=device)
            self.rank_true_heads.index_copy_(0, rows, rk_true_h)
            self.rank_true_tails.index_copy_(0, rows, rk_true_t)
            self.filt_rank_true_heads.index_copy_(0, rows, f_rk_true_h)
            self.filt_rank_true_tails.index_copy_(0, rows, f_rk_true_t)

        self.evaluated = True
        if use_cuda:
            self.rank_true_heads = self.rank_true_heads.cpu()
            self.rank_true_tails = self.rank_true_tails.cpu()
            self.filt_rank_true_heads = self.filt_rank_true_heads.cpu()
            self.filt_rank_true_tails = self.filt_rank_true_tails.cpu()


n_ent, n_rel = 1000, 30
kg_test = KnowledgeGraph(torch.randint(0, n_ent, (512,)), torch.randint(0, n_ent, (512,)),
                         torch.randint(0, n_rel, (512,)))
model = TransEModel(100, n_ent, n_rel).to(torch.device("cuda:0"))
evaluator = LinkPredictionEvaluator(model, kg_test)
'''
CELL = '''
evaluator.evaluate(b_size=128, verbose=False)
head_ranks = evaluator.rank_true_heads.float()
mrr_heads = (head_ranks ** (-1)).mean()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
