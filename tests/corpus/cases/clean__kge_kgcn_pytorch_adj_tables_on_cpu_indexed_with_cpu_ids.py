"""KGCN-pytorch (current model.py): the neighbour tables stay on the CPU, looked up with `.cpu()` ids and moved to the device.

Source: https://github.com/zzaebok/KGCN-pytorch/blob/master/model.py
`KGCN._gen_adj` keeps `self.adj_ent`/`self.adj_rel` as plain CPU tensors (sampled once from the
knowledge graph, not buffers, so `net.to(device)` leaves them on the CPU by design) and
`_get_neighbors` indexes them with `entities[h].cpu()` and sends the gathered neighbours
`.to(self.device)`. CUDA item ids meeting CPU tables that `Module.to()` does not move is the
repository's layout. Look-alike: it runs.
Stand-in: the repository's KGCN with a reduced sum aggregator; the adjacency is built from lists.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import random
import torch
import torch.nn.functional as F


class Aggregator(torch.nn.Module):
    def __init__(self, batch_size, dim):
        super().__init__()
        self.batch_size = batch_size
        self.dim = dim
        self.weights = torch.nn.Linear(dim, dim, bias=True)

    def forward(self, self_vectors, neighbor_vectors, neighbor_relations, user_embeddings, act):
        batch_size = user_embeddings.size(0)
        user_embeddings = user_embeddings.view((batch_size, 1, 1, self.dim))
        user_relation_scores = (user_embeddings * neighbor_relations).sum(dim=-1)
        user_relation_scores_normalized = F.softmax(user_relation_scores, dim=-1).unsqueeze(dim=-1)
        neighbors_agg = (user_relation_scores_normalized * neighbor_vectors).sum(dim=2)
        output = (self_vectors + neighbors_agg).view((-1, self.dim))
        return act(self.weights(output)).view((batch_size, -1, self.dim))


class KGCN(torch.nn.Module):
    def __init__(self, num_user, num_ent, num_rel, kg, args, device):
        super(KGCN, self).__init__()
        self.num_user = num_user
        self.num_ent = num_ent
        self.num_rel = num_rel
        self.n_iter = args["n_iter"]
        self.batch_size = args["batch_size"]
        self.dim = args["dim"]
        self.n_neighbor = args["neighbor_sample_size"]
        self.kg = kg
        self.device = device
        self.aggregator = Aggregator(self.batch_size, self.dim)
        self._gen_adj()
        self.usr = torch.nn.Embedding(num_user, args["dim"])
        self.ent = torch.nn.Embedding(num_ent, args["dim"])
        self.rel = torch.nn.Embedding(num_rel, args["dim"])

    def _gen_adj(self):
        adj_ent, adj_rel = [], []
        for e in range(self.num_ent):
            if len(self.kg[e]) >= self.n_neighbor:
                neighbors = random.sample(self.kg[e], self.n_neighbor)
            else:
                neighbors = random.choices(self.kg[e], k=self.n_neighbor)
            adj_ent.append([ent for _, ent in neighbors])
            adj_rel.append([rel for rel, _ in neighbors])
        self.adj_ent = torch.tensor(adj_ent, dtype=torch.long)
        self.adj_rel = torch.tensor(adj_rel, dtype=torch.long)

    def forward(self, u, v):
        batch_size = u.size(0)
        if batch_size != self.batch_size:
            self.batch_size = batch_size
        u = u.view((-1, 1))
        v = v.view((-1, 1))
        user_embeddings = self.usr(u).squeeze(dim=1)
        entities, relations = self._get_neighbors(v)
        item_embeddings = self._aggregate(user_embeddings, entities, relations)
        scores = (user_embeddings * item_embeddings).sum(dim=1)
        return torch.sigmoid(scores)

    def _get_neighbors(self, v):
        entities = [v]
        relations = []
        for h in range(self.n_iter):
            neighbor_entities = torch.LongTensor(self.adj_ent[entities[h].cpu()]).view((self.batch_size, -1)).to(self.device)
            neighbor_relations = torch.LongTensor(self.adj_rel[entities[h].cpu()]).view((self.batch_size, -1)).to(self.device)
            entities.append(neighbor_entities)
            relations.append(neighbor_relations)
        return entities, relations

    def _aggregate(self, user_embeddings, entities, relations):
        entity_vectors = [self.ent(entity) for entity in entities]
        relation_vectors = [self.rel(relation) for relation in relations]
        for i in range(self.n_iter):
            act = torch.tanh if i == self.n_iter - 1 else torch.sigmoid
            entity_vectors_next_iter = []
            for hop in range(self.n_iter - i):
                vector = self.aggregator(
                    self_vectors=entity_vectors[hop],
                    neighbor_vectors=entity_vectors[hop + 1].view((self.batch_size, -1, self.n_neighbor, self.dim)),
                    neighbor_relations=relation_vectors[hop].view((self.batch_size, -1, self.n_neighbor, self.dim)),
                    user_embeddings=user_embeddings,
                    act=act)
                entity_vectors_next_iter.append(vector)
            entity_vectors = entity_vectors_next_iter
        return entity_vectors[0].view((self.batch_size, self.dim))


# MovieLens-1M-like sizes, reduced
num_user, num_ent, num_rel = 600, 900, 12
random.seed(0)
kg = {e: [(random.randrange(num_rel), random.randrange(num_ent)) for _ in range(random.randint(1, 12))]
      for e in range(num_ent)}
args = dict(n_iter=1, batch_size=32, dim=16, neighbor_sample_size=8)
device = torch.device("cuda:0")
net = KGCN(num_user, num_ent, num_rel, kg, args, device).to(device)
criterion = torch.nn.BCELoss()
optimizer = torch.optim.Adam(net.parameters(), lr=5e-4, weight_decay=1e-4)
user_ids = torch.randint(0, num_user, (32,))
item_ids = torch.randint(0, num_ent, (32,))
labels = torch.randint(0, 2, (32,)).float()
'''
CELL = '''
user_ids, item_ids, labels = user_ids.to(device), item_ids.to(device), labels.to(device)
optimizer.zero_grad()
outputs = net(user_ids, item_ids)
loss = criterion(outputs, labels)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
