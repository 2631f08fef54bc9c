"""Look-alike: sentence-transformers `encode` tokenizes on the CPU, moves each batch to the model's cuda device and collects the embeddings back on the CPU.

Source: https://github.com/huggingface/sentence-transformers/blob/master/sentence_transformers/SentenceTransformer.py
`SentenceTransformer.encode` sorts the sentences by length, tokenizes each batch (CPU tensors),
`batch_to_device(features, device)`, runs the model, and (for numpy/CPU output) `.cpu()`s every batch
before stacking; semantic search then compares CPU query and corpus embeddings. A cuda model with a
CPU features dict and CPU results in the namespace, each op on one device: nothing to report.
Stand-in: a mean-pooling encoder over an embedding table; `util.cos_sim` as in the library.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

def batch_to_device(batch, target_device):
    for key in batch:
        if isinstance(batch[key], torch.Tensor):
            batch[key] = batch[key].to(target_device)
    return batch

def cos_sim(a, b):
    a_norm = torch.nn.functional.normalize(a, p=2, dim=1)
    b_norm = torch.nn.functional.normalize(b, p=2, dim=1)
    return torch.mm(a_norm, b_norm.transpose(0, 1))

class MeanPoolEncoder(nn.Module):
    def __init__(self, vocab=1000, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)

    def tokenize(self, texts):
        ids = [[hash(w) % 1000 for w in t.split()] for t in texts]
        n = max(len(i) for i in ids)
        return {"input_ids": torch.tensor([i + [0] * (n - len(i)) for i in ids]),
                "attention_mask": torch.tensor([[1] * len(i) + [0] * (n - len(i)) for i in ids])}

    def forward(self, features):
        tok = self.emb(features["input_ids"])
        mask = features["attention_mask"].unsqueeze(-1).to(tok.dtype)
        features["sentence_embedding"] = (tok * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
        return features

    def encode(self, sentences, batch_size=2, device="cuda:0", convert_to_numpy=True):
        self.to(device)
        length_sorted_idx = np.argsort([-len(s) for s in sentences])
        sentences_sorted = [sentences[idx] for idx in length_sorted_idx]
        all_embeddings = []
        for start_index in range(0, len(sentences), batch_size):
            sentences_batch = sentences_sorted[start_index:start_index + batch_size]
            features = self.tokenize(sentences_batch)
            features = batch_to_device(features, device)
            with torch.no_grad():
                out_features = self.forward(features)
                embeddings = out_features["sentence_embedding"].detach()
                if convert_to_numpy:
                    embeddings = embeddings.cpu()
                all_embeddings.extend(embeddings.unbind(0))
        all_embeddings = [all_embeddings[idx] for idx in np.argsort(length_sorted_idx)]
        return torch.stack(all_embeddings)

model = MeanPoolEncoder()
corpus = ["A man is eating food.", "A man is riding a horse.", "A woman is playing violin.",
          "Two men pushed carts through the woods.", "A cheetah chases prey."]
corpus_embeddings = model.encode(corpus, device="cuda:0")
'''
CELL = '''
query_embedding = model.encode(["A man is eating pasta."], device="cuda:0")
cos_scores = cos_sim(query_embedding, corpus_embeddings)[0]
top_results = torch.topk(cos_scores, k=3)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
