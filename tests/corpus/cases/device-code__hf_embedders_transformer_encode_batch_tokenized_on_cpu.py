"""code-kern-ai embedders on GPU: the transformer embedder tokenizes each batch on the CPU and calls the cuda model.

Source: https://github.com/code-kern-ai/embedders/pull/5
"Move tokenizer to CUDA": running embedders 0.0.11 on a GPU server, `/extraction/encode` fails with "Expected all
tensors to be on the same device ... (when checking argument for argument index in method
wrapper__index_select)". The embedder loads `AutoModel.from_pretrained(...)` and moves it to `self.device`, but
its batch encoder passes the tokenizer's `BatchEncoding` straight to the model; the PR adds
`.to(self.device)` on the encoding. Stand-ins: a word-hash tokenizer returning a dict, a tiny BertModel, and the
embedder's `transform`/`_encode` shape (mean over tokens).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class AutoTokenizer:
    def __call__(self, documents, padding=True, truncation=True, return_tensors="pt"):
        ids = [[101] + [(sum(map(ord, w)) % 30000) + 200 for w in d.split()][:30] + [102] for d in documents]
        n = max(len(x) for x in ids)
        return {"input_ids": torch.tensor([x + [0] * (n - len(x)) for x in ids]),
                "attention_mask": torch.tensor([[1] * len(x) + [0] * (n - len(x)) for x in ids])}

class BertModel(nn.Module):
    def __init__(self, vocab_size=30522, hidden=32):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, hidden)
        self.encoder = nn.Sequential(nn.Linear(hidden, hidden), nn.GELU())
    def forward(self, input_ids, attention_mask=None):
        return (self.encoder(self.embeddings(input_ids)),)

class TransformerSentenceEmbedder:
    def __init__(self, config_string="bert-base-uncased", batch_size=128):
        self.device = torch.device("cuda:0")       # "cuda" if torch.cuda.is_available() else "cpu"
        self.tokenizer = AutoTokenizer()
        self.model = BertModel().to(self.device)   # AutoModel.from_pretrained(config_string)
        self.batch_size = batch_size

    def _encode(self, documents):
        for i in range(0, len(documents), self.batch_size):
            encoded = self.tokenizer(documents[i:i + self.batch_size], padding=True, truncation=True,
                                     return_tensors="pt")
            model_output = self.model(**encoded)
            yield model_output[0].mean(dim=1)

    def transform(self, documents):
        return [emb for batch in self._encode(documents) for emb in batch]

embedder = TransformerSentenceEmbedder("bert-base-uncased")
documents = ["The product works fine", "Delivery took three weeks", "I want a refund"]
'''
CELL = '''
embeddings = embedder.transform(documents)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["embedder"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("model_output = self.model(**encoded)",
                  "model_output = self.model(**{k: v.to(self.device) for k, v in encoded.items()})")
CLEAN = False
