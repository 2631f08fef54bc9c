"""AutoRAG ColBERT reranker on a CUDA machine: the model goes to cuda, the tokenized query and documents do not.

Source: https://github.com/Marker-Inc-Korea/AutoRAG/issues/301
"Error when using Colbert Reranker at CUDA enabled device": `colbert_reranker` loads
`AutoModel.from_pretrained("colbert-ir/colbertv2.0").to(device)` with `device = "cuda"` when available,
but `get_colbert_score` passes `tokenizer(query, return_tensors="pt")` straight to the model, so the
embedding lookup fails ("cuda:0 and cpu ... wrapper_CUDA__index_select"). PR #379 moves the encodings
to the model's device. Stand-ins: a word-hash tokenizer and a tiny BERT-shaped encoder; the MaxSim
scoring is AutoRAG's.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn

class AutoTokenizer:
    def __call__(self, text, return_tensors="pt", truncation=False, max_length=512):
        ids = [101] + [sum(map(ord, w)) % 28000 + 999 for w in text.split()][:max_length - 2] + [102]
        return {"input_ids": torch.tensor([ids]), "attention_mask": torch.ones(1, len(ids), dtype=torch.long)}

class AutoModel(nn.Module):
    def __init__(self, vocab=30522, hidden=32):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, hidden)
        self.encoder = nn.Linear(hidden, hidden)
    def forward(self, input_ids, attention_mask=None):
        h = self.encoder(self.embeddings(input_ids))
        return SimpleNamespace(last_hidden_state=h * attention_mask[..., None].to(h.dtype))

def get_colbert_score(query, content_list, model, tokenizer):
    query_encoding = tokenizer(query, return_tensors="pt")
    query_embedding = model(**query_encoding).last_hidden_state
    rerank_score_list = []
    for document_text in content_list:
        document_encoding = tokenizer(document_text, return_tensors="pt", truncation=True, max_length=512)
        document_embedding = model(**document_encoding).last_hidden_state
        sim_matrix = torch.nn.functional.cosine_similarity(
            query_embedding.unsqueeze(2), document_embedding.unsqueeze(1), dim=-1)
        max_sim_scores, _ = torch.max(sim_matrix, dim=2)
        rerank_score_list.append(torch.mean(max_sim_scores, dim=1))
    return rerank_score_list

device = "cuda:0"                    # "cuda" if torch.cuda.is_available() else "cpu"
model = AutoModel().to(device)
tokenizer = AutoTokenizer()
query = "What is the capital of France?"
contents = ["Paris is the capital of France.", "Berlin is the capital of Germany."]
'''
CELL = '''
with torch.no_grad():
    scores = get_colbert_score(query, contents, model, tokenizer)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["query_encoding"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""    query_encoding = tokenizer(query, return_tensors="pt")
    query_embedding = model(**query_encoding).last_hidden_state
    rerank_score_list = []
    for document_text in content_list:
        document_encoding = tokenizer(document_text, return_tensors="pt", truncation=True, max_length=512)
""",
                  """    device = next(model.parameters()).device
    query_encoding = {k: v.to(device) for k, v in tokenizer(query, return_tensors="pt").items()}
    query_embedding = model(**query_encoding).last_hidden_state
    rerank_score_list = []
    for document_text in content_list:
        document_encoding = {k: v.to(device) for k, v in tokenizer(document_text, return_tensors="pt", truncation=True, max_length=512).items()}
""")
CLEAN = False
