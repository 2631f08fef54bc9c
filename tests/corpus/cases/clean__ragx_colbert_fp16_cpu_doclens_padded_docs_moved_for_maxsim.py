"""Look-alike: ColBERT keeps document embeddings as float16 on the CPU and moves/casts them next to the query for MaxSim.

Source: https://github.com/stanford-futuredata/ColBERT/blob/main/colbert/modeling/colbert.py
The index stores token embeddings in half precision on the host; at search time `colbert_score(Q,
D_padded, D_mask)` moves `Q, D_padded, D_mask` to cuda when `use_gpu`, and the scores are computed as
`D_padded @ Q.to(dtype=D_padded.dtype).T`, masked and max-reduced. CPU fp16 storage, a float32 query from
a cuda checkpoint, int64 doc lengths on the CPU: all on purpose, and it runs. Stand-in: a linear query
encoder; the scoring follows ColBERT's `colbert_score` / `colbert_score_reduce` (the padding mask is
`mask == 0` here instead of `~mask.bool()`, which the simulator cannot run on a fake cuda tensor).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def colbert_score_reduce(scores_padded, D_mask):
    D_padding = D_mask.view(scores_padded.size(0), scores_padded.size(1)) == 0
    scores_padded = scores_padded.masked_fill(D_padding.unsqueeze(-1), -9999)
    return scores_padded.max(1).values.sum(-1)

def colbert_score(Q, D_padded, D_mask, use_gpu=True):
    if use_gpu:
        Q, D_padded, D_mask = Q.to("cuda:0"), D_padded.to("cuda:0"), D_mask.to("cuda:0")
    assert Q.dim() == 3
    scores = D_padded @ Q.to(dtype=D_padded.dtype).permute(0, 2, 1)
    return colbert_score_reduce(scores, D_mask)

query_encoder = nn.Linear(16, 8).to("cuda:0")
doclens = torch.tensor([5, 7, 3])
D_padded = torch.randn(3, 7, 8).half()                     # index storage: fp16 on the host
D_mask = (torch.arange(7)[None, :] < doclens[:, None]).long().unsqueeze(-1)
'''
CELL = '''
with torch.no_grad():
    Q = query_encoder(torch.randn(1, 6, 16).to("cuda:0"))
    scores = colbert_score(Q, D_padded, D_mask)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
