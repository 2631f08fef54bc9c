"""obsidian-copilot retrieval: `query_semantic` tokenizes the query on the CPU and feeds it to the embedding model on the GPU.

Source: https://github.com/eugeneyan/obsidian-copilot/pull/4
"Fixing bugs related to cpu/gpu device mismatch": in `query_semantic` "the tokenized query needs to
be on the same device as the model", and the resulting embedding has to come back to the CPU before
`.numpy()`. Stand-in: an E5-style encoder with mean pooling on cuda:0 and a small in-memory
document-embedding index in place of the OpenSearch/numpy search.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class Tokenizer:
    def __call__(self, texts, max_length=32, padding=True, truncation=True, return_tensors="pt"):
        rows = [[(sum(map(ord, w)) % 90) + 1 for w in t.split()][:max_length] for t in texts]
        n = max(map(len, rows))
        ids = torch.tensor([r + [0] * (n - len(r)) for r in rows])
        return {"input_ids": ids, "attention_mask": (ids != 0).long()}

class E5Encoder(nn.Module):
    def __init__(self, vocab=100, d=32):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, d)
        self.layer = nn.Linear(d, d)

    def forward(self, input_ids, attention_mask):
        return torch.tanh(self.layer(self.embeddings(input_ids)))

def average_pool(last_hidden_states, attention_mask):
    last_hidden = last_hidden_states * attention_mask[..., None]
    return last_hidden.sum(dim=1) / attention_mask.sum(dim=1)[..., None]

def query_semantic(query, tokenizer, model, doc_embeddings, device, k=3):
    query_batch = tokenizer(["query: " + query], max_length=32, padding=True, truncation=True, return_tensors="pt")
    with torch.no_grad():
        query_emb = average_pool(model(**query_batch), query_batch["attention_mask"])
    scores = query_emb @ doc_embeddings.T
    return scores.topk(k, dim=-1)

device = "cuda:0"
tokenizer = Tokenizer()
model = E5Encoder().to(device).eval()
doc_embeddings = torch.randn(10, 32, device=device)   # passage embeddings computed earlier on the GPU
'''
CELL = '''
hits = query_semantic("what did I write about writing habits", tokenizer, model, doc_embeddings, device)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["query_batch"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('truncation=True, return_tensors="pt")\n',
                  'truncation=True, return_tensors="pt")\n    query_batch = {k: v.to(device) for k, v in query_batch.items()}\n')
CLEAN = False
