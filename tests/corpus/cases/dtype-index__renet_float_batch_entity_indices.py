"""RE-Net: the training batch is a float tensor, so the entity ids used to index the embeddings are float.

Source: https://github.com/INK-USC/RE-Net/issues/29
`self.ent_embeds[s[s_idx]]` raised "IndexError: tensors used as indices must be long, byte or bool
tensors": the (subject, relation, object, time) quadruples came from the data loader as a float
tensor, so `s` and `r` were float. The maintainer updated train.py "so that the batch should be
LongTensor". Stand-in: quadruples loaded through NumPy as floats, and the model's lookup.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import numpy as np
import torch
from torch import nn

class RENet(nn.Module):
    def __init__(self, num_ents=50, num_rels=8, h_dim=16):
        super().__init__()
        self.ent_embeds = nn.Parameter(torch.randn(num_ents, h_dim))
        self.rel_embeds = nn.Parameter(torch.randn(2 * num_rels, h_dim))
        self.linear = nn.Linear(3 * h_dim, num_ents)

    def forward(self, triplets):
        s, r = triplets[:, 0], triplets[:, 1]
        s_idx = torch.arange(len(s))
        h = torch.zeros(len(s), self.ent_embeds.shape[1])
        x = torch.cat((self.ent_embeds[s[s_idx]], h, self.rel_embeds[r[s_idx]]), dim=1)
        return self.linear(x)

train_data = np.loadtxt([f"{np.random.randint(50)} {np.random.randint(8)} {np.random.randint(50)} 0"
                         for _ in range(64)])            # float64 quadruples, as np.loadtxt reads them
model = RENet()
batch_data = torch.from_numpy(train_data[:32]).float()
'''
CELL = '''
loss = nn.functional.cross_entropy(model(batch_data), batch_data[:, 2].long())
'''
EXPECT_ERROR = "tensors used as indices must be long"
CULPRITS = ["batch_data"]
FIX = "namespace"
REFERENCE_FIX = '''
batch_data = batch_data.long()
'''
REFERENCE_EDIT = None
CLEAN = False
