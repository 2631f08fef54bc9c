"""pytorch-tabnet `EmbeddingGenerator`: categorical codes arrive in the float feature matrix and are cast with `.long()` column by column.

Source: https://github.com/dreamquark-ai/tabnet/blob/develop/pytorch_tabnet/tab_network.py
TabNet takes one float32 matrix `X` holding both continuous columns and label-encoded categorical
columns (`cat_idxs`). `EmbeddingGenerator.forward` walks its boolean `continuous_idx` mask: a
continuous column is kept with `.float()`, a categorical column goes through its `nn.Embedding` as
`x[:, feat_init_idx].long()`.
Look-alike: float-typed categorical codes next to `nn.Embedding` layers; it runs.
Stand-in: EmbeddingGenerator as in the library, without the group-matrix bookkeeping. CPU: dtype only.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch

class EmbeddingGenerator(torch.nn.Module):
    def __init__(self, input_dim, cat_dims, cat_idxs, cat_emb_dims):
        super().__init__()
        if cat_dims == [] and cat_idxs == []:
            self.skip_embedding = True
            self.post_embed_dim = input_dim
            return
        self.skip_embedding = False
        self.post_embed_dim = int(input_dim + np.sum(cat_emb_dims) - len(cat_emb_dims))
        self.embeddings = torch.nn.ModuleList()
        for cat_dim, emb_dim in zip(cat_dims, cat_emb_dims):
            self.embeddings.append(torch.nn.Embedding(cat_dim, emb_dim))
        # record continuous indices
        self.continuous_idx = torch.ones(input_dim, dtype=torch.bool)
        self.continuous_idx[cat_idxs] = 0

    def forward(self, x):
        if self.skip_embedding:
            return x
        cols = []
        cat_feat_counter = 0
        for feat_init_idx, is_continuous in enumerate(self.continuous_idx):
            if is_continuous:
                cols.append(x[:, feat_init_idx].float().view(-1, 1))
            else:
                cols.append(self.embeddings[cat_feat_counter](x[:, feat_init_idx].long()))
                cat_feat_counter += 1
        return torch.cat(cols, dim=1)

rng = np.random.default_rng(0)
cat_idxs, cat_dims = [1, 3], [9, 16]
X = rng.standard_normal((1024, 6)).astype(np.float32)
X[:, 1] = rng.integers(0, 9, 1024)
X[:, 3] = rng.integers(0, 16, 1024)
embedder = EmbeddingGenerator(input_dim=6, cat_dims=cat_dims, cat_idxs=cat_idxs, cat_emb_dims=[3, 4])
x = torch.from_numpy(X)
'''
CELL = '''
post_embeddings = embedder(x)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
