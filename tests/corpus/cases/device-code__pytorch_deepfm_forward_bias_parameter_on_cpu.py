"""Pytorch_DeepFM with `use_cuda=True`: `forward` builds `bias = torch.nn.Parameter(torch.randn(Xi.size(0)))` on the CPU.

Source: https://github.com/Hyfred/Pytorch_DeepFM/issues/4
"bias未设置device, 导致use_cuda=True时报错" (bias has no device, so use_cuda=True fails): DeepFM's
`forward` creates a fresh per-batch `bias` without a device and adds it to the CUDA FM/deep sums,
"RuntimeError: expected device cuda:0 but got device cpu". The reporter's fix creates it on
`self.device`. Stand-in: DeepFM as in the repo with 3 dense + 3 categorical fields instead of 13+26,
`fit` as in the repo; "meta" plays the GPU so that `fit` can run backward and the optimizer step.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

N_DENSE = 3

class DeepFM(nn.Module):
    def __init__(self, feature_sizes, embedding_size=4, hidden_dims=[32, 32], num_classes=1,
                 dropout=[0.5, 0.5], use_cuda=True, verbose=False):
        super().__init__()
        self.field_size = len(feature_sizes)
        self.feature_sizes = feature_sizes
        self.embedding_size = embedding_size
        self.hidden_dims = hidden_dims
        self.num_classes = num_classes
        self.dtype = torch.float
        if use_cuda:
            self.device = torch.device("meta")       # torch.device('cuda') in the repo
        else:
            self.device = torch.device("cpu")
        fm_first_order_Linears = nn.ModuleList(
            [nn.Linear(feature_size, self.embedding_size) for feature_size in self.feature_sizes[:N_DENSE]])
        fm_first_order_embeddings = nn.ModuleList(
            [nn.Embedding(feature_size, self.embedding_size) for feature_size in self.feature_sizes[N_DENSE:]])
        self.fm_first_order_models = fm_first_order_Linears.extend(fm_first_order_embeddings)
        fm_second_order_Linears = nn.ModuleList(
            [nn.Linear(feature_size, self.embedding_size) for feature_size in self.feature_sizes[:N_DENSE]])
        fm_second_order_embeddings = nn.ModuleList(
            [nn.Embedding(feature_size, self.embedding_size) for feature_size in self.feature_sizes[N_DENSE:]])
        self.fm_second_order_models = fm_second_order_Linears.extend(fm_second_order_embeddings)
        all_dims = [self.field_size * self.embedding_size] + self.hidden_dims + [self.num_classes]
        for i in range(1, len(hidden_dims) + 1):
            setattr(self, "linear_" + str(i), nn.Linear(all_dims[i - 1], all_dims[i]))
            setattr(self, "batchNorm_" + str(i), nn.BatchNorm1d(all_dims[i]))
            setattr(self, "dropout_" + str(i), nn.Dropout(dropout[i - 1]))

    def _field_embeddings(self, models, Xi, Xv):
        arr = []
        for i, emb in enumerate(models):
            if i < N_DENSE:
                Xi_tem = Xi[:, i, :].to(device=self.device, dtype=torch.float)
                arr.append((torch.sum(emb(Xi_tem).unsqueeze(1), 1).t() * Xv[:, i]).t())
            else:
                Xi_tem = Xi[:, i, :].to(device=self.device, dtype=torch.long)
                arr.append((torch.sum(emb(Xi_tem), 1).t() * Xv[:, i]).t())
        return arr

    def forward(self, Xi, Xv):
        fm_first_order = torch.cat(self._field_embeddings(self.fm_first_order_models, Xi, Xv), 1)
        fm_second_order_emb_arr = self._field_embeddings(self.fm_second_order_models, Xi, Xv)
        fm_sum_second_order_emb = sum(fm_second_order_emb_arr)
        fm_sum_second_order_emb_square = fm_sum_second_order_emb * fm_sum_second_order_emb
        fm_second_order_emb_square_sum = sum([item * item for item in fm_second_order_emb_arr])
        fm_second_order = (fm_sum_second_order_emb_square - fm_second_order_emb_square_sum) * 0.5
        deep_out = torch.cat(fm_second_order_emb_arr, 1)
        for i in range(1, len(self.hidden_dims) + 1):
            deep_out = getattr(self, "linear_" + str(i))(deep_out)
            deep_out = getattr(self, "batchNorm_" + str(i))(deep_out)
            deep_out = getattr(self, "dropout_" + str(i))(deep_out)
        bias = torch.nn.Parameter(torch.randn(Xi.size(0)))
        total_sum = torch.sum(fm_first_order, 1) + torch.sum(fm_second_order, 1) + \\
                    torch.sum(deep_out, 1) + bias
        return total_sum

    def fit(self, loader_train, optimizer, epochs=1):
        model = self.train().to(device=self.device)
        criterion = F.binary_cross_entropy_with_logits
        for epoch in range(epochs):
            for t, (xi, xv, y) in enumerate(loader_train):
                xi = xi.to(device=self.device, dtype=self.dtype)
                xv = xv.to(device=self.device, dtype=torch.float)
                y = y.to(device=self.device, dtype=self.dtype)
                total = model(xi, xv)
                loss = criterion(total, y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()

feature_sizes = [1, 1, 1, 20, 30, 40]
n = 64
Xi = torch.cat([torch.rand(n, N_DENSE, 1), torch.randint(0, 20, (n, 3, 1)).float()], 1)
Xv = torch.ones(n, len(feature_sizes))
y = torch.randint(0, 2, (n,)).float()
loader_train = DataLoader(TensorDataset(Xi, Xv, y), batch_size=32, shuffle=True)
model = DeepFM(feature_sizes, use_cuda=True)
model = model.to(model.device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4, weight_decay=0.0)
'''
CELL = '''
model.fit(loader_train, optimizer, epochs=1)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device",
                "expected device")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("bias = torch.nn.Parameter(torch.randn(Xi.size(0)))",
                  "bias = torch.nn.Parameter(torch.randn(Xi.size(0), device=self.device))")
CLEAN = False
