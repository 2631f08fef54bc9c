"""Look-alike: sentence-transformers `MultipleNegativesRankingLoss` builds its in-batch labels with `torch.arange(..., device=scores.device)`.

Source: https://github.com/huggingface/sentence-transformers/blob/master/sentence_transformers/losses/MultipleNegativesRankingLoss.py
The loss embeds anchors and positives with the (cuda) model, scores `similarity_fct(anchors, candidates) *
scale`, and makes the targets `range_labels = torch.arange(0, scores.size(0), device=scores.device)`. The
tokenized features dicts arrive on the model's device through the trainer's collator; the scale is a
Python float. A cuda model with CPU-made text batches in the namespace, and a loss that runs: nothing to
report. Stand-in: a bag-of-words encoder; `cos_sim` as in `sentence_transformers.util`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def cos_sim(a, b):
    return torch.mm(nn.functional.normalize(a, p=2, dim=1), nn.functional.normalize(b, p=2, dim=1).transpose(0, 1))

class Encoder(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.emb = nn.EmbeddingBag(3000, dim, mode="mean")
    def forward(self, features):
        return {"sentence_embedding": self.emb(features["input_ids"])}

class MultipleNegativesRankingLoss(nn.Module):
    def __init__(self, model, scale=20.0, similarity_fct=cos_sim):
        super().__init__()
        self.model, self.scale, self.similarity_fct = model, scale, similarity_fct
        self.cross_entropy_loss = nn.CrossEntropyLoss()
    def forward(self, sentence_features, labels=None):
        embeddings = [self.model(f)["sentence_embedding"] for f in sentence_features]
        anchors, candidates = embeddings[0], torch.cat(embeddings[1:])
        scores = self.similarity_fct(anchors, candidates) * self.scale
        range_labels = torch.arange(0, scores.size(0), device=scores.device)
        return self.cross_entropy_loss(scores, range_labels)

def collate(texts, device):
    ids = [[sum(map(ord, w)) % 3000 for w in t.split()][:6] for t in texts]
    ids = torch.tensor([i + [0] * (6 - len(i)) for i in ids])
    return {"input_ids": ids.to(device)}

model = Encoder().to("cuda:0")
loss_fn = MultipleNegativesRankingLoss(model)
anchors = ["how do I reset my password", "where is my order", "cancel subscription"]
positives = ["password reset steps", "order tracking page", "how to cancel a plan"]
'''
CELL = '''
with torch.no_grad():
    loss = loss_fn([collate(anchors, "cuda:0"), collate(positives, "cuda:0")])
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
