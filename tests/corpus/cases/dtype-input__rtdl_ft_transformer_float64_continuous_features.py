"""rtdl-revisiting-models FT-Transformer trained on float64 features: "expected scalar type Double but found Float".

Source: https://github.com/yandex-research/rtdl-revisiting-models/issues/51
A user adapting the package's example to their own data hit "RuntimeError: expected scalar type
Double but found Float" in the FT-Transformer. The maintainer: the data (not the model) is float64
(numpy arrays stored or preprocessed as float64); cast the continuous features to float32. The
tokenizer's `x[..., None] * weight + bias` keeps float64, the CLS concat promotes to float64 and the
first attention projection fails. Stand-in: the package's LinearEmbeddings, CLS token and one
transformer block; `data` built as in the example notebook from a float64 numpy array.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import math
import numpy as np
import torch
from torch import nn

class LinearEmbeddings(nn.Module):
    def __init__(self, n_features, d_embedding):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(n_features, d_embedding))
        self.bias = nn.Parameter(torch.empty(n_features, d_embedding))
        d_rsqrt = d_embedding ** -0.5
        nn.init.uniform_(self.weight, -d_rsqrt, d_rsqrt)
        nn.init.uniform_(self.bias, -d_rsqrt, d_rsqrt)

    def forward(self, x):
        return torch.addcmul(self.bias, self.weight, x[..., None])

class CategoricalEmbeddings(nn.Module):
    def __init__(self, cardinalities, d_embedding):
        super().__init__()
        self.embeddings = nn.ModuleList([nn.Embedding(c, d_embedding) for c in cardinalities])

    def forward(self, x):
        return torch.stack([m(x.select(-1, i)) for i, m in enumerate(self.embeddings)], dim=-2)

class FTTransformer(nn.Module):
    def __init__(self, n_cont_features, cat_cardinalities, d_out, d_block=32, attention_n_heads=4):
        super().__init__()
        self.cls_embedding = nn.Parameter(torch.randn(d_block) / math.sqrt(d_block))
        self.cont_embeddings = LinearEmbeddings(n_cont_features, d_block)
        self.cat_embeddings = CategoricalEmbeddings(cat_cardinalities, d_block)
        self.attention = nn.MultiheadAttention(d_block, attention_n_heads, batch_first=True)
        self.ffn_normalization = nn.LayerNorm(d_block)
        self.ffn = nn.Sequential(nn.Linear(d_block, 2 * d_block), nn.ReLU(), nn.Linear(2 * d_block, d_block))
        self.output = nn.Sequential(nn.LayerNorm(d_block), nn.ReLU(), nn.Linear(d_block, d_out))

    def forward(self, x_cont, x_cat=None):
        x_any = x_cat if x_cont is None else x_cont
        x = [self.cls_embedding.expand(x_any.shape[0], 1, -1)]
        x.append(self.cont_embeddings(x_cont))
        if x_cat is not None:
            x.append(self.cat_embeddings(x_cat))
        x = torch.cat(x, dim=1)
        x = x + self.attention(x, x, x, need_weights=False)[0]
        x = x + self.ffn(self.ffn_normalization(x))
        return self.output(x.select(1, 0))

rng = np.random.default_rng(0)
X_cont = rng.standard_normal((256, 8))                 # float64, as read from the user's files
X_cat = rng.integers(0, 5, (256, 2))
Y = rng.integers(0, 2, 256)
device = torch.device("cpu")
data_numpy = {"train": {"x_cont": X_cont, "x_cat": X_cat, "y": Y}}
data = {part: {k: torch.as_tensor(v, device=device) for k, v in data_numpy[part].items()}
        for part in data_numpy}
model = FTTransformer(n_cont_features=8, cat_cardinalities=[5, 5], d_out=2).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=1e-5)

def apply_model(batch):
    return model(batch["x_cont"], batch.get("x_cat")).squeeze(-1)
'''
CELL = '''
model.train()
optimizer.zero_grad()
batch = data["train"]
loss = nn.functional.cross_entropy(apply_model(batch), batch["y"])
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = ("expected scalar type Double but found Float", "mat1 and mat2 must have the same dtype",
                "expected m1 and m2 to have the same dtype", "must have the same dtype")
CULPRITS = ["data['train']['x_cont']"]
FIX = "namespace"
REFERENCE_FIX = '''
data["train"]["x_cont"] = data["train"]["x_cont"].float()
'''
REFERENCE_EDIT = None
CLEAN = False
