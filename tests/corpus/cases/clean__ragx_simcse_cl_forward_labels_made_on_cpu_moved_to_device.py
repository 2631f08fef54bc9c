"""Look-alike: SimCSE's `cl_forward` makes the contrastive labels with `torch.arange(...).long().to(cls.device)`.

Source: https://github.com/princeton-nlp/SimCSE/blob/main/simcse/models.py
Unsupervised SimCSE feeds each sentence twice (dropout noise), pools `[CLS]`, computes `cos_sim =
Similarity(temp)(z1.unsqueeze(1), z2.unsqueeze(0))` and the targets `labels =
torch.arange(cos_sim.size(0)).long().to(cls.device)`; the temperature is a Python float. CPU-made labels,
moved before the loss; the batch dict is moved by the Trainer: nothing to report. Stand-in: a small
BERT-shaped encoder and the pooler; meta/cpu devices so the backward runs.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class Similarity(nn.Module):
    def __init__(self, temp):
        super().__init__()
        self.temp = temp
        self.cos = nn.CosineSimilarity(dim=-1)
    def forward(self, x, y):
        return self.cos(x, y) / self.temp

class BertForCL(nn.Module):
    def __init__(self, temp=0.05, dim=32):
        super().__init__()
        self.embeddings = nn.Embedding(30522, dim)
        self.encoder = nn.Sequential(nn.Linear(dim, dim), nn.Dropout(0.1), nn.Tanh())
        self.sim = Similarity(temp)
    @property
    def device(self):
        return self.embeddings.weight.device
    def forward(self, input_ids, attention_mask):
        batch_size, num_sent = input_ids.size(0), input_ids.size(1)
        input_ids = input_ids.view(-1, input_ids.size(-1))
        pooler_output = self.encoder(self.embeddings(input_ids))[:, 0]
        pooler_output = pooler_output.view(batch_size, num_sent, -1)
        z1, z2 = pooler_output[:, 0], pooler_output[:, 1]
        cos_sim = self.sim(z1.unsqueeze(1), z2.unsqueeze(0))
        labels = torch.arange(cos_sim.size(0)).long().to(self.device)
        return nn.CrossEntropyLoss()(cos_sim, labels)

model = BertForCL().to("meta")
ids = torch.randint(1, 30000, (4, 1, 12))
batch = {"input_ids": ids.repeat(1, 2, 1).to("meta"), "attention_mask": torch.ones(4, 2, 12, dtype=torch.long).to("meta")}
'''
CELL = '''
loss = model(**batch)
loss.backward()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
