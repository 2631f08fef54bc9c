"""HNE's R-GCN, supervised on Yelp's multi-label classes: `binary_cross_entropy` gets the labels as a LongTensor.

Source: https://github.com/yangji9181/HNE/issues/13
"R-GCN RuntimeError: Found dtype Long but expected Float" at
`predict_loss = F.binary_cross_entropy(torch.sigmoid(embed[matched_index]), matched_labels)` in
`get_supervised_loss` (dataset Yelp, `supervised='True'`, multi-label): the labels were loaded into a
LongTensor, which the BCE target cannot be. The maintainer fixed the label dtype. Stand-in: R-GCN's
supervised loss on top of a node-embedding table.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

class RGCNLinkPredict(nn.Module):
    def __init__(self, num_nodes, h_dim, num_labels):
        super().__init__()
        self.node_embed = nn.Embedding(num_nodes, h_dim)
        self.classifier = nn.Linear(h_dim, num_labels)

    def forward(self):
        return self.classifier(torch.relu(self.node_embed.weight))

    def get_supervised_loss(self, embed, matched_labels, matched_index, multi):
        if multi:
            predict_loss = F.binary_cross_entropy(torch.sigmoid(embed[matched_index]), matched_labels)
        else:
            predict_loss = F.nll_loss(F.log_softmax(embed[matched_index], dim=1), matched_labels)
        return predict_loss

num_nodes, num_labels = 60, 5
model = RGCNLinkPredict(num_nodes, 16, num_labels)
label_rows = np.random.randint(0, 2, size=(20, num_labels))        # multi-hot rows read from label.dat
matched_index = torch.LongTensor(np.random.choice(num_nodes, 20, replace=False))
matched_labels = torch.LongTensor(label_rows)
multi = True
'''
CELL = '''
pred = model()
loss = model.get_supervised_loss(pred, matched_labels, matched_index, multi)
loss.backward()
'''
EXPECT_ERROR = "Found dtype Long but expected Float"
CULPRITS = ["matched_labels"]
FIX = "namespace"
REFERENCE_FIX = '''
matched_labels = matched_labels.float()
'''
REFERENCE_EDIT = None
CLEAN = False
