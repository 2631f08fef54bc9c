"""Haystack `SASEvaluator`: answer embeddings are computed on the accelerator and both sides are moved to the CPU before `cos_sim`.

Source: https://github.com/deepset-ai/haystack/pull/7428
The semantic-answer-similarity evaluator encodes predicted and ground-truth answers with a
SentenceTransformer on the accelerator (`convert_to_tensor=True`) and computes
`util.cos_sim(p.cpu(), l.cpu()) for p, l in zip(predictions_embeddings, label_embeddings)` so the
scores can go to numpy. Look-alike: embeddings on cuda:0, CPU-side similarity on purpose. Stand-in:
a toy encoder for the SentenceTransformer and `cos_sim` as in sentence_transformers.util.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def cos_sim(a, b):
    if len(a.shape) == 1:
        a = a.unsqueeze(0)
    if len(b.shape) == 1:
        b = b.unsqueeze(0)
    a_norm = torch.nn.functional.normalize(a, p=2, dim=1)
    b_norm = torch.nn.functional.normalize(b, p=2, dim=1)
    return torch.mm(a_norm, b_norm.transpose(0, 1))

class ToyEncoder(nn.Module):
    def __init__(self, vocab=100, d=32):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, d)
        self.proj = nn.Linear(d, d)

    def encode(self, token_ids, convert_to_tensor=True):
        return self.proj(self.emb(token_ids))

model = ToyEncoder().to("cuda:0").eval()
predicted_ids = torch.randint(0, 100, (3, 6)).to("cuda:0")
ground_truth_ids = torch.randint(0, 100, (3, 6)).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    predictions_embeddings = model.encode(predicted_ids, convert_to_tensor=True)
    label_embeddings = model.encode(ground_truth_ids, convert_to_tensor=True)
    similarity_scores = [
        cos_sim(p.cpu(), l.cpu()) for p, l in zip(predictions_embeddings.unbind(0), label_embeddings.unbind(0))
    ]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
