"""HNE R-GCN, single-label dataset: `matched_labels` stay `long` for the NLL loss (multi-label ones are cast to float).

Source: https://github.com/yangji9181/HNE/blob/master/Model/R-GCN/src/main.py
After the fix for multi-label datasets, `main.py` builds `matched_labels = torch.from_numpy(...)
.float()` when `multi` and `.long()` otherwise; for a single-label dataset (e.g. DBLP) the loss
is `F.nll_loss(F.log_softmax(embed[matched_index]), matched_labels)`, which needs integer class
indices. Integer targets next to float logits look like a dtype slip but are what NLL wants.
Look-alike: it runs.
Stand-in: the R-GCN encoder is reduced to an embedding + linear layer (no DGL graph); the loss
method and the label cast are the repository's. CPU: dtype only.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class LinkPredict(nn.Module):
    def __init__(self, num_nodes, h_dim, o_dim, nlabel, reg_param=0.01):
        super().__init__()
        self.embedding = nn.Embedding(num_nodes, h_dim)
        self.rgcn = nn.Sequential(nn.Linear(h_dim, o_dim), nn.ReLU())   # stands in for the R-GCN layers
        self.reg_param = reg_param
        self.supervised = True
        self.LinearLayer = torch.nn.Linear(o_dim, nlabel)

    def forward(self, node_id):
        output = self.rgcn(self.embedding(node_id.squeeze(-1)))
        pred = self.LinearLayer(output) if self.supervised else None
        return output, pred

    def supervised_regularization_loss(self, embedding):
        return torch.mean(embedding.pow(2))

    def get_supervised_loss(self, embed, matched_labels, matched_index, multi):
        if multi:
            predict_loss = F.binary_cross_entropy(torch.sigmoid(embed[matched_index]), matched_labels)
        else:
            predict_loss = F.nll_loss(F.log_softmax(embed[matched_index], dim=-1), matched_labels)
        reg_loss = self.supervised_regularization_loss(embed)
        return predict_loss + self.reg_param * reg_loss


# DBLP: single-label author classification (4 labels)
num_nodes, nlabels, multi = 2000, 4, False
model = LinkPredict(num_nodes, h_dim=50, o_dim=50, nlabel=nlabels)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

rng = np.random.default_rng(0)
node_id = torch.from_numpy(rng.choice(num_nodes, 300, replace=False)).view(-1, 1).long()
matched_index = rng.choice(300, 64, replace=False)
matched_labels = rng.integers(0, nlabels, 64)
if multi: matched_labels = torch.from_numpy(matched_labels).float()
else: matched_labels = torch.from_numpy(matched_labels).long()
'''
CELL = '''
model.train()
embed, pred = model(node_id)
loss = model.get_supervised_loss(pred, matched_labels, matched_index, multi)
loss.backward()
optimizer.step()
optimizer.zero_grad()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
