"""LightRAG `hf_embedding` with a local bge model on the GPU: the tokenized `input_ids` stay on the CPU.

Source: https://github.com/HKUDS/LightRAG/issues/249
The user plugged a local `bge-large-zh-v1.5` (AutoModel + AutoTokenizer) into LightRAG through
`EmbeddingFunc(func=lambda texts: hf_embedding(texts, tokenizer=..., embed_model=...))`; `rag.insert`
failed with "Expected all tensors to be on the same device, but found at least two devices, cpu and
cuda:0! (... wrapper_CUDA__index_select)". `hf_embedding` tokenizes with `return_tensors='pt'` and
calls `embed_model(input_ids)` without a device; the fix (PR #266) moves `input_ids` to
`next(embed_model.parameters()).device`. Stand-ins: a word-hash tokenizer, a tiny BERT-shaped encoder
already on cuda:0 (as in the traceback), and `hf_embedding` as in lightrag/llm.py (sync here).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn

class AutoTokenizer:
    def __call__(self, texts, return_tensors="pt", padding=True, truncation=True):
        ids = [[101] + [sum(map(ord, w)) % 20000 + 200 for w in t.split()][:30] + [102] for t in texts]
        n = max(len(x) for x in ids)
        return SimpleNamespace(input_ids=torch.tensor([x + [0] * (n - len(x)) for x in ids]))

class AutoModel(nn.Module):
    def __init__(self, vocab=21128, hidden=32):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, hidden)
        self.encoder = nn.Sequential(nn.Linear(hidden, hidden), nn.GELU())
    def forward(self, input_ids):
        return SimpleNamespace(last_hidden_state=self.encoder(self.embeddings(input_ids)))

def hf_embedding(texts, tokenizer, embed_model):
    input_ids = tokenizer(texts, return_tensors="pt", padding=True, truncation=True).input_ids
    with torch.no_grad():
        outputs = embed_model(input_ids)
        embeddings = outputs.last_hidden_state.mean(dim=1)
    return embeddings.detach()

tokenizer = AutoTokenizer()
embed_model = AutoModel().to("cuda:0")   # the bge model ends up on the GPU
chunks = ["LightRAG splits the book into chunks", "each chunk is embedded before insertion"]
'''
CELL = '''
vectors = hf_embedding(chunks, tokenizer=tokenizer, embed_model=embed_model)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["input_ids"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('input_ids = tokenizer(texts, return_tensors="pt", padding=True, truncation=True).input_ids',
                  'input_ids = tokenizer(texts, return_tensors="pt", padding=True, truncation=True).input_ids.to(next(embed_model.parameters()).device)')
CLEAN = False
