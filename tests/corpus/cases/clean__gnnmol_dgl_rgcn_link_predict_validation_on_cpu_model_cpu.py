"""Look-alike: DGL's RGCN link-prediction example trains on the GPU and validates on the CPU by moving the model there and back.

Source: https://github.com/dmlc/dgl/issues/1021
The RGCN link-prediction script quoted in that report trains with `node_id, deg, edge_type, edge_norm,
data, labels` all moved with `.cuda()`, then, every `evaluate_every` epochs, "perform validation on
CPU because full graph is too large": `model.cpu()`, a forward on the CPU test graph tensors,
`calc_mrr(embed, model.w_relation, valid_data, ...)`, and `model.cuda()` before training resumes. The
cpu/cuda split is deliberate and consistent at each step. Stand-in: the graph reduced to per-node
embeddings (`EmbeddingLayer` + one relational layer as a Linear), DistMult scoring (row lookups written
with `F.embedding`), a small MRR.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class LinkPredict(nn.Module):
    def __init__(self, num_nodes, h_dim, num_rels):
        super().__init__()
        self.embedding = nn.Embedding(num_nodes, h_dim)
        self.rgcn = nn.Linear(h_dim, h_dim)
        self.w_relation = nn.Parameter(torch.randn(num_rels, h_dim))

    def forward(self, node_id, norm):
        h = self.embedding(node_id)
        return F.relu(self.rgcn(h)) * norm

    def calc_score(self, embedding, triplets):
        s = F.embedding(triplets[:, 0], embedding)
        r = F.embedding(triplets[:, 1], self.w_relation)
        o = F.embedding(triplets[:, 2], embedding)
        return torch.sum(s * r * o, dim=1)

def calc_mrr(embedding, w, test_triplets):
    s, r, o = test_triplets[:, 0], test_triplets[:, 1], test_triplets[:, 2]
    emb_ar = embedding[s] * w[r]
    scores = emb_ar @ embedding.t()
    target = scores.gather(1, o.view(-1, 1))
    ranks = (scores > target).sum(1).float() + 1
    return torch.mean(1.0 / ranks)

use_cuda = True
num_nodes, num_rels = 40, 5
model = LinkPredict(num_nodes, 16, num_rels)

# test graph kept on the CPU ("full graph is too large")
test_node_id = torch.arange(num_nodes)
test_norm = torch.rand(num_nodes, 1)
valid_data = torch.stack([torch.randint(0, num_nodes, (20,)), torch.randint(0, num_rels, (20,)),
                          torch.randint(0, num_nodes, (20,))], dim=1)

# training batch on the GPU
node_id = torch.randint(0, num_nodes, (30,))
deg = torch.rand(30, 1)
data = torch.stack([torch.randint(0, 30, (50,)), torch.randint(0, num_rels, (50,)),
                    torch.randint(0, 30, (50,))], dim=1)
labels = torch.randint(0, 2, (50,)).float()
if use_cuda:
    model.to("cuda:0")                                   # model.cuda()
    node_id, deg = node_id.to("cuda:0"), deg.to("cuda:0")
    data, labels = data.to("cuda:0"), labels.to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    embed = model(node_id, deg)
    score = model.calc_score(embed, data)
    loss = F.binary_cross_entropy_with_logits(score, labels)

    # validation: perform validation on CPU because full graph is too large
    if use_cuda:
        model.cpu()
    model.eval()
    embed = model(test_node_id, test_norm)
    mrr = calc_mrr(embed, model.w_relation, valid_data)
    if use_cuda:
        model.to("cuda:0")
    model.train()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
