"""sentence-transformers after `model.half()`: mean pooling hard-codes a float32 mask.

Source: https://github.com/huggingface/sentence-transformers/pull/2492
`Pooling.forward` built `input_mask_expanded = attention_mask.unsqueeze(-1).expand(token_embeddings.size()).float()`;
with the model in half precision the float16 token embeddings times the float32 mask give float32
sentence embeddings, and the next module (a half-precision Dense projection, as in LaBSE-style
models) fails with a dtype mismatch. The PR creates the mask with the embeddings' dtype. Simulated
on the CPU; the transformer is a tiny stand-in.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn

class Transformer(nn.Module):
    def __init__(self, vocab=1000, dim=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.layer = nn.TransformerEncoderLayer(dim, 4, 128, batch_first=True)

    def forward(self, features):
        features["token_embeddings"] = self.layer(self.emb(features["input_ids"]))
        return features

class Pooling(nn.Module):
    def forward(self, features):
        token_embeddings = features["token_embeddings"]
        attention_mask = features["attention_mask"]
        input_mask_expanded = attention_mask.unsqueeze(-1).expand(token_embeddings.size()).float()
        sum_embeddings = torch.sum(token_embeddings * input_mask_expanded, 1)
        sum_mask = torch.clamp(input_mask_expanded.sum(1), min=1e-9)
        features["sentence_embedding"] = sum_embeddings / sum_mask
        return features

class Dense(nn.Module):
    def __init__(self, in_features=64, out_features=32):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, features):
        features["sentence_embedding"] = torch.tanh(self.linear(features["sentence_embedding"]))
        return features

model = nn.Sequential(Transformer(), Pooling(), Dense()).eval()
model.half()
features = {"input_ids": torch.randint(0, 1000, (4, 12)),
            "attention_mask": torch.ones(4, 12, dtype=torch.long)}
'''
CELL = '''
with torch.no_grad():
    embeddings = model(features)["sentence_embedding"]
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected m1 and m2 to have the same dtype",
                "expected scalar type")
CULPRITS = ["input_mask_expanded"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (".expand(token_embeddings.size()).float()",
                  ".expand(token_embeddings.size()).to(token_embeddings.dtype)")
CLEAN = False
