"""Look-alike: sentence-transformers util.semantic_search with the corpus embeddings on the GPU and the query embeddings on the CPU: the function moves the queries to the corpus device itself.

Source: https://github.com/huggingface/sentence-transformers/blob/master/sentence_transformers/util.py
`semantic_search(query_embeddings, corpus_embeddings, ...)` starts with "Check that corpus and queries are on the
same device": `if corpus_embeddings.device != query_embeddings.device: query_embeddings =
query_embeddings.to(corpus_embeddings.device)`, then scores chunks with `cos_sim` and `torch.topk`. A corpus encoded
on cuda:0 searched with queries encoded on a CPU copy of the model is a supported mix. Stand-ins: `cos_sim` and
`semantic_search` reduced to one chunk (results stay tensors; `narrow` instead of slicing).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch

def normalize_embeddings(embeddings):
    return torch.nn.functional.normalize(embeddings, p=2, dim=1)

def cos_sim(a, b):
    return torch.mm(normalize_embeddings(a), normalize_embeddings(b).transpose(0, 1))

def semantic_search(query_embeddings, corpus_embeddings, query_chunk_size=100, corpus_chunk_size=500000,
                    top_k=10, score_function=cos_sim):
    if len(query_embeddings.shape) == 1:
        query_embeddings = query_embeddings.unsqueeze(0)
    # Check that corpus and queries are on the same device
    if corpus_embeddings.device != query_embeddings.device:
        query_embeddings = query_embeddings.to(corpus_embeddings.device)
    q = query_embeddings.narrow(0, 0, min(query_chunk_size, query_embeddings.shape[0]))
    c = corpus_embeddings.narrow(0, 0, min(corpus_chunk_size, corpus_embeddings.shape[0]))
    cos_scores = score_function(q, c)
    return torch.topk(cos_scores, min(top_k, cos_scores.shape[1]), dim=1, largest=True, sorted=False)

corpus_embeddings = torch.randn(50, 384, device="cuda:0")      # corpus encoded by the GPU model
query_embeddings = torch.randn(3, 384)                          # queries encoded on a CPU worker
'''
CELL = '''
cos_scores_top_k_values, cos_scores_top_k_idx = semantic_search(query_embeddings, corpus_embeddings, top_k=5)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
