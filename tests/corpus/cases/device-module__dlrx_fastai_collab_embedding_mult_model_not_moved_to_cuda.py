"""Collaborative filtering from scratch: the `EmbeddingMult` model stays on the CPU while the fastai learner feeds cuda batches.

Source: https://github.com/anhquan0412/basic_model_scratch/issues/1
Running "Model 1: Multiplying 2 embedding matrices" on a GPU machine, `learner.fit(1e-2, 3, ...)` failed
in the embedding's `index_select` with a CPU FloatTensor weight and a `torch.cuda.LongTensor` index: the
notebook had dropped `.cuda()` from the model (it was written on a CPU machine), but fastai moves every
batch to the GPU. The author's fix: `em_model = EmbeddingMult(n_factors, cf.n_users, cf.n_items).cuda()`.
Stand-in: the notebook's `EmbeddingMult`, a `CollabFilterModel` wrapper and a minimal learner whose
`fit` sends each (cats, conts, y) batch to cuda:0 as fastai 0.7 does; one batch, no optimizer.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class EmbeddingMult(nn.Module):
    def __init__(self, n_factors, n_users, n_items):
        super().__init__()
        self.u = nn.Embedding(n_users, n_factors)
        self.m = nn.Embedding(n_items, n_factors)

    def forward(self, cats, conts):
        users = cats.narrow(1, 0, 1).squeeze(1)
        movies = cats.narrow(1, 1, 1).squeeze(1)
        u, m = self.u(users), self.m(movies)
        return (u * m).sum(1)

class CollabFilterModel:
    def __init__(self, model):
        self.model = model

class CollabFilterLearner:
    def __init__(self, data, models, crit=nn.MSELoss()):
        self.data, self.models, self.crit = data, models, crit

    def fit(self, lr, n_cycle, wds=None, cycle_len=1, cycle_mult=1):
        for cats, conts, y in self.data:
            cats, conts, y = cats.to("cuda:0"), conts.to("cuda:0"), y.to("cuda:0")   # fastai: V(x) -> cuda
            preds = self.models.model(cats, conts)
            loss = self.crit(preds, y)
        return loss

n_factors, n_users, n_items, bs = 10, 50, 80, 16
batches = [(torch.stack([torch.randint(0, n_users, (bs,)), torch.randint(0, n_items, (bs,))], 1),
            torch.zeros(bs, 0), torch.rand(bs) * 5)]
em_model = EmbeddingMult(n_factors, n_users, n_items)
model = CollabFilterModel(em_model)
learner = CollabFilterLearner(batches, model)
'''
CELL = '''
with torch.no_grad():
    learner.fit(1e-2, 3, wds=1e-4, cycle_len=1, cycle_mult=2)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["em_model"]
FIX = "namespace"
REFERENCE_FIX = '''
em_model.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
