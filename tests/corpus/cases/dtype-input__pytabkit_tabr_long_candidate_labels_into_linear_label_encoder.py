"""pytabkit TabR: the retrieved neighbours' labels `candidate_y` are a LongTensor and go straight into the `nn.Linear` label encoder.

Source: https://github.com/dholzmueller/pytabkit/pull/14
"Fix: Long vs Float dtype mismatch in TabrModel": running the scikit-learn interface on a
classification dataset, `context_y_emb = self.label_encoder(candidate_y[context_idx][..., None])`
failed with "mat1 and mat2 must have the same dtype, but got Long and Float": the labels are integer
class ids while the label encoder of this configuration is `nn.Linear(1, d_main)`; the PR casts them
to float for the linear encoder (and keeps them long for the embedding one). Stand-in: TabrModel's
retrieval step as in the TabR code (encoder, K, T, label encoder), exact top-k search with `torch.topk`.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class TabrModel(nn.Module):
    def __init__(self, n_num_features, n_classes, d_main=32, context_size=8, regression_label_encoder=True):
        super().__init__()
        self.context_size = context_size
        self.linear = nn.Linear(n_num_features, d_main)
        self.normalization = nn.LayerNorm(d_main)
        self.K = nn.Linear(d_main, d_main)
        self.label_encoder = (
            nn.Linear(1, d_main) if regression_label_encoder
            else nn.Sequential(nn.Embedding(n_classes, d_main))
        )
        self.T = nn.Sequential(nn.Linear(d_main, 2 * d_main), nn.ReLU(), nn.Linear(2 * d_main, d_main, bias=False))
        self.head = nn.Sequential(nn.LayerNorm(d_main), nn.ReLU(), nn.Linear(d_main, n_classes))

    def _encode(self, x):
        x = self.linear(x)
        k = self.K(self.normalization(x))
        return x, k

    def forward(self, x_num, candidate_x_num, candidate_y):
        x, k = self._encode(x_num)
        _, candidate_k = self._encode(candidate_x_num)
        distances = (k.square().sum(-1, keepdim=True) - 2 * (k @ candidate_k.T)
                     + candidate_k.square().sum(-1)[None])
        context_idx = torch.topk(-distances, self.context_size, dim=-1).indices
        context_k = candidate_k[context_idx]
        similarities = -k.square().sum(-1, keepdim=True) + (2 * (k[..., None, :] @ context_k.transpose(-1, -2))).squeeze(-2) \\
            - context_k.square().sum(-1)
        probs = F.softmax(similarities, dim=-1)
        context_y_emb = self.label_encoder(candidate_y[context_idx][..., None])
        values = context_y_emb + self.T(k[:, None] - context_k)
        context_x = (probs[:, None] @ values).squeeze(1)
        return self.head(x + context_x)

torch.manual_seed(0)
n_classes = 3
X_train = torch.randn(200, 10)
y_train = torch.randint(0, n_classes, (200,))          # class ids from the label encoder of the sklearn interface
model = TabrModel(n_num_features=10, n_classes=n_classes)
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
batch_idx = torch.arange(32)
candidate_x_num, candidate_y = X_train[32:], y_train[32:]
'''
CELL = '''
model.train()
logits = model(X_train[batch_idx], candidate_x_num, candidate_y)
loss = F.cross_entropy(logits, y_train[batch_idx])
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected m1 and m2 to have the same dtype",
                "expected scalar type")
CULPRITS = ["candidate_y"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("context_y_emb = self.label_encoder(candidate_y[context_idx][..., None])",
                  "context_y_emb = self.label_encoder(candidate_y[context_idx][..., None].float())")
CLEAN = False
