"""SentenceTransformer loaded with `model_kwargs={"torch_dtype": torch.float16}`: only the Transformer module is half, the model's Dense projection stays float32.

Source: https://github.com/huggingface/sentence-transformers/issues/2887
Loading `dunzhang/stella_en_400M_v5` with `model_kwargs={"torch_dtype": torch.float16}` and calling
`model.encode(sentences)` fails with "mat1 and mat2 must have the same dtype, but got Half and Float"; calling
`.half()` on the SentenceTransformer fixes it, and `all-MiniLM-L6-v2` (no Dense module) is unaffected. As a
commenter found, `torch_dtype` only reaches the Hugging Face model inside the Transformer module; the Pooling and
Dense modules that follow are built in float32. Stand-ins: a SentenceTransformer (nn.Sequential of Transformer,
Pooling, Dense as in the library) whose loader passes model_kwargs to the Transformer only; plain CPU.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
from collections import OrderedDict
import torch
from torch import nn

class Transformer(nn.Module):
    def __init__(self, model_args=None, vocab_size=30522, hidden=32):
        super().__init__()
        self.auto_model = nn.Sequential(nn.Embedding(vocab_size, hidden), nn.Linear(hidden, hidden), nn.Tanh())
        dtype = (model_args or {}).get("torch_dtype")
        if dtype is not None:
            self.auto_model.to(dtype)           # AutoModel.from_pretrained(..., torch_dtype=dtype)
    def forward(self, features):
        features["token_embeddings"] = self.auto_model(features["input_ids"])
        return features

class Pooling(nn.Module):
    def forward(self, features):
        mask = features["attention_mask"].unsqueeze(-1).to(features["token_embeddings"].dtype)
        features["sentence_embedding"] = (features["token_embeddings"] * mask).sum(1) / mask.sum(1)
        return features

class Dense(nn.Module):
    def __init__(self, in_features=32, out_features=16):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
    def forward(self, features):
        features["sentence_embedding"] = self.linear(features["sentence_embedding"])
        return features

class SentenceTransformer(nn.Sequential):
    def __init__(self, model_name_or_path, device=None, trust_remote_code=False, model_kwargs=None):
        modules = [Transformer(model_args=model_kwargs), Pooling(), Dense()]
        super().__init__(OrderedDict([(str(i), m) for i, m in enumerate(modules)]))
    def tokenize(self, texts):
        ids = [[101] + [(sum(map(ord, w)) % 30000) + 100 for w in t.split()] + [102] for t in texts]
        n = max(len(x) for x in ids)
        return {"input_ids": torch.tensor([x + [0] * (n - len(x)) for x in ids]),
                "attention_mask": torch.tensor([[1] * len(x) + [0] * (n - len(x)) for x in ids])}
    @torch.no_grad()
    def encode(self, sentences):
        return self.forward(self.tokenize(sentences))["sentence_embedding"]

model_name = "dunzhang/stella_en_400M_v5"
model = SentenceTransformer(model_name, device="cpu", trust_remote_code=True,
                            model_kwargs={"torch_dtype": torch.float16})
sentences = ["This is a sentence."]
'''
CELL = '''
output = model.encode(sentences)
'''
EXPECT_ERROR = "mat1 and mat2 must have the same dtype"
CULPRITS = ["model[2]"]
FIX = "namespace"
REFERENCE_FIX = '''
model = model.half()
'''
REFERENCE_EDIT = None
CLEAN = False
