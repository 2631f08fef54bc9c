"""sentence-transformers `Pooling` (mean) on a bfloat16 encoder: the int64 attention mask is cast to the token embeddings' dtype.

Source: https://github.com/huggingface/sentence-transformers/blob/master/sentence_transformers/models/Pooling.py
Mean pooling builds `input_mask_expanded = attention_mask.unsqueeze(-1).expand(token_embeddings.size())
.to(token_embeddings.dtype)`, sums the masked embeddings and divides by
`torch.clamp(sum_mask, min=1e-9)`. Look-alike for retrieval: a bf16 embedding model with int64 ids
and mask, mixed dtypes by design, then cosine scores against float32 corpus embeddings after
`.float()`. Stand-in: a toy transformer module; CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn

class Transformer(nn.Module):
    def __init__(self, vocab=100, d=32):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, d)
        self.layer = nn.Linear(d, d)

    def forward(self, features):
        features["token_embeddings"] = torch.tanh(self.layer(self.embeddings(features["input_ids"])))
        return features

class Pooling(nn.Module):
    def forward(self, features):
        token_embeddings = features["token_embeddings"]
        attention_mask = features["attention_mask"]
        input_mask_expanded = attention_mask.unsqueeze(-1).expand(token_embeddings.size()).to(token_embeddings.dtype)
        sum_embeddings = torch.sum(token_embeddings * input_mask_expanded, 1)
        sum_mask = input_mask_expanded.sum(1)
        sum_mask = torch.clamp(sum_mask, min=1e-9)
        features["sentence_embedding"] = sum_embeddings / sum_mask
        return features

model = nn.Sequential(Transformer(), Pooling()).to(torch.bfloat16).eval()
ids = torch.randint(1, 100, (3, 7))
ids[1, 5:] = 0
features = {"input_ids": ids, "attention_mask": (ids != 0).long()}
corpus_embeddings = F.normalize(torch.randn(20, 32), dim=-1)   # float32, computed earlier
'''
CELL = '''
with torch.no_grad():
    query_embeddings = model(dict(features))["sentence_embedding"]
    scores = F.normalize(query_embeddings.float(), dim=-1) @ corpus_embeddings.T
    top = scores.topk(5, dim=-1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
