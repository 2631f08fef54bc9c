"""Look-alike: caikit-nlp's embedding reranker encodes queries and documents, then moves both to `self.model.device` before scoring.

Source: https://github.com/caikit/caikit-nlp/pull/235
In the rerank task the sentence-transformers model picks cuda by itself; `encode(..., convert_to_tensor=True)`
results are moved with `.to(self.model.device)` and normalized before the dot-product scores and `topk`.
The raw query/document strings and CPU token ids stay in the namespace beside a cuda model, but every op
runs on one device: nothing to report. Stand-in: a mean-pooling encoder with `encode` and `device`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def normalize_embeddings(e):
    return torch.nn.functional.normalize(e, p=2, dim=1)

class SentenceTransformer(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.emb = nn.Embedding(5000, dim)
    @property
    def device(self):
        return self.emb.weight.device
    def tokenize(self, texts):
        ids = [[sum(map(ord, w)) % 5000 for w in t.split()] for t in texts]
        n = max(len(i) for i in ids)
        return torch.tensor([i + [0] * (n - len(i)) for i in ids]), torch.tensor([[1.0] * len(i) + [0.0] * (n - len(i)) for i in ids])
    def encode(self, texts, convert_to_tensor=True):
        ids, mask = self.tokenize(texts)
        with torch.no_grad():
            tok = self.emb(ids.to(self.device))
            mask = mask.to(self.device)[..., None]
            return (tok * mask).sum(1) / mask.sum(1)

class EmbeddingReranker:
    def __init__(self, model):
        self.model = model
    def run_rerank_queries(self, queries, documents, top_n=2):
        doc_texts = [d.get("text") or d.get("_text", "") for d in documents]
        doc_embeddings = self.model.encode(doc_texts, convert_to_tensor=True)
        doc_embeddings = normalize_embeddings(doc_embeddings.to(self.model.device))
        query_embeddings = self.model.encode(queries, convert_to_tensor=True)
        query_embeddings = normalize_embeddings(query_embeddings.to(self.model.device))
        scores = query_embeddings @ doc_embeddings.t()
        return torch.topk(scores, k=top_n, dim=1)

reranker = EmbeddingReranker(SentenceTransformer().to("cuda:0"))
documents = [{"text": "first doc about cats"}, {"_text": "second doc about dogs"}, {"text": "third about birds"}]
queries = ["which animal purrs", "which animal barks"]
'''
CELL = '''
top = reranker.run_rerank_queries(queries, documents, top_n=2)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
