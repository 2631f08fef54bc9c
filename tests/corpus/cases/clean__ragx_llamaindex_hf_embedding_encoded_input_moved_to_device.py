"""Look-alike: llama_index `HuggingFaceEmbedding._embed` tokenizes on the CPU, moves every tensor to `self._device`, pools, and returns Python lists.

Source: https://github.com/run-llama/llama_index/blob/main/llama-index-integrations/embeddings/llama-index-embeddings-huggingface/llama_index/embeddings/huggingface/base.py
The embedding class keeps `self._device` (cuda when available), does `encoded_input = {k: v.to(self._device)
for k, v in encoded_input.items()}`, mean-pools with the (moved) attention mask, normalizes, and returns
`embeddings.tolist()`-style CPU results. A cuda model, CPU tokenizer output and CPU results in the
namespace, all on purpose: nothing to report. Stand-in: a toy tokenizer and a tiny encoder.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class Tokenizer:
    def __call__(self, sentences, padding=True, max_length=512, truncation=True, return_tensors="pt"):
        ids = [[101] + [sum(map(ord, w)) % 9000 + 500 for w in s.split()] + [102] for s in sentences]
        n = max(len(i) for i in ids)
        return {"input_ids": torch.tensor([i + [0] * (n - len(i)) for i in ids]),
                "attention_mask": torch.tensor([[1] * len(i) + [0] * (n - len(i)) for i in ids])}

class Encoder(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.emb = nn.Embedding(10000, hidden)
        self.proj = nn.Linear(hidden, hidden)
    def forward(self, input_ids, attention_mask):
        return (self.proj(self.emb(input_ids)),)

class HuggingFaceEmbedding:
    def __init__(self, model_name, device="cuda:0", normalize=True):
        self._device = device
        self._model = Encoder().to(device)
        self._tokenizer = Tokenizer()
        self.normalize = normalize

    def _mean_pooling(self, model_output, attention_mask):
        token_embeddings = model_output[0]
        input_mask_expanded = attention_mask.unsqueeze(-1).expand(token_embeddings.size()).float()
        return torch.sum(token_embeddings * input_mask_expanded, 1) / torch.clamp(input_mask_expanded.sum(1), min=1e-9)

    def _embed(self, sentences):
        encoded_input = self._tokenizer(sentences, padding=True, truncation=True, return_tensors="pt")
        encoded_input = {k: v.to(self._device) for k, v in encoded_input.items()}
        with torch.no_grad():
            model_output = self._model(**encoded_input)
        embeddings = self._mean_pooling(model_output, encoded_input["attention_mask"])
        if self.normalize:
            embeddings = torch.nn.functional.normalize(embeddings, p=2, dim=1)
        return embeddings.cpu()

embed_model = HuggingFaceEmbedding(model_name="BAAI/bge-small-en-v1.5")
nodes_text = ["VectorStoreIndex splits documents into nodes", "each node gets an embedding"]
'''
CELL = '''
vectors = embed_model._embed(nodes_text)
query_vec = embed_model._embed(["what gets an embedding?"])
similarity = query_vec @ vectors.t()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
