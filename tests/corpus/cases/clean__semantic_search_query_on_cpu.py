"""Semantic search with the corpus embeddings on the GPU and the query on the CPU: it runs.

Source: https://github.com/huggingface/sentence-transformers/issues/2326
The traceback in this report shows `util.semantic_search` comparing devices itself
(`if corpus_embeddings.device != query_embeddings.device:`) and moving the query embeddings to
the corpus's device before the cosine similarities. Users move a large precomputed corpus to the
GPU once (the speed-up the library's docs suggest) and pass queries from anywhere. Two tensors on
two devices, deliberately, and a library call that reconciles them: nothing to fix.
Stand-in: `semantic_search` reduced to that device check, cos_sim and topk.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch

def cos_sim(a, b):
    a_norm = torch.nn.functional.normalize(a, p=2, dim=1)
    b_norm = torch.nn.functional.normalize(b, p=2, dim=1)
    return torch.mm(a_norm, b_norm.transpose(0, 1))

def semantic_search(query_embeddings, corpus_embeddings, top_k=10):
    if corpus_embeddings.device != query_embeddings.device:
        query_embeddings = query_embeddings.to(corpus_embeddings.device)
    cos_scores = cos_sim(query_embeddings, corpus_embeddings)
    return torch.topk(cos_scores, k=top_k, dim=1)

corpus_embeddings = torch.randn(1000, 128, device="cuda:0")
query_embedding = torch.randn(5, 128)
'''
CELL = '''
hits = semantic_search(query_embedding, corpus_embeddings, top_k=5)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
