"""Look-alike: DeepCTR-Torch's `Linear` makes its logit buffer with `torch.zeros(...)` on the CPU and moves it to the embeddings' device.

Source: https://github.com/shenweichen/DeepCTR-Torch/blob/master/deepctr_torch/models/basemodel.py
`Linear.forward` looks up a 1-dim embedding per sparse feature, then starts the sum with
`linear_logit = torch.zeros([X.shape[0], 1]).to(sparse_embedding_list[0].device)` and adds the dense
part `torch.cat(dense_value_list, dim=-1).matmul(self.weight)`. A tensor created without a device inside
forward, but moved to the device of the looked-up embeddings before use: runs on cuda:0.
Stand-in: the linear part of a DeepFM-style model with 3 sparse and 2 dense columns (the
`X[:, start:end]` column slices written as `narrow`).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class Linear(nn.Module):
    def __init__(self, n_sparse=3, vocab=20, n_dense=2, init_std=0.0001, device="cpu"):
        super().__init__()
        self.n_sparse, self.n_dense, self.device = n_sparse, n_dense, device
        self.embedding_dict = nn.ModuleList([nn.Embedding(vocab, 1) for _ in range(n_sparse)])
        self.weight = nn.Parameter(torch.Tensor(n_dense, 1))
        torch.nn.init.normal_(self.weight, mean=0, std=init_std)

    def forward(self, X, sparse_feat_refine_weight=None):
        sparse_embedding_list = [emb(X.narrow(1, i, 1).long()) for i, emb in enumerate(self.embedding_dict)]
        dense_value_list = [X.narrow(1, self.n_sparse + j, 1) for j in range(self.n_dense)]
        linear_logit = torch.zeros([X.shape[0], 1]).to(sparse_embedding_list[0].device)
        if len(sparse_embedding_list) > 0:
            sparse_embedding_cat = torch.cat(sparse_embedding_list, dim=-1)
            sparse_feat_logit = torch.sum(sparse_embedding_cat, dim=-1, keepdim=False)
            linear_logit += sparse_feat_logit
        if len(dense_value_list) > 0:
            dense_value_logit = torch.cat(dense_value_list, dim=-1).matmul(self.weight)
            linear_logit += dense_value_logit
        return linear_logit

device = "cuda:0"
linear_model = Linear(device=device).to(device)
X = torch.cat([torch.randint(0, 20, (32, 3)).float(), torch.rand(32, 2)], dim=1).to(device)
'''
CELL = '''
with torch.no_grad():
    logit = linear_model(X)
    y_pred = torch.sigmoid(logit)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
