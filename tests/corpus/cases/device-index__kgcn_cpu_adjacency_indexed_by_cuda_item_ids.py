"""KGCN-pytorch notebook on the GPU: the CPU neighbour tables `adj_ent`/`adj_rel` are indexed with the CUDA item ids.

Source: https://github.com/zzaebok/KGCN-pytorch/issues/6
Running KGCN.ipynb with `device = cuda`, `net(user_ids, item_ids)` failed in `_get_neighbors` with
"indices should be either on cpu or on the same device as the indexed tensor (cpu)": `_gen_adj`
fills `self.adj_ent`/`self.adj_rel` as plain CPU tensors (sampled from the Python KG dict), and the
batch's item ids were moved to the GPU. The repository's fix indexes with `entities[h].cpu()` and
moves the neighbours to `self.device`. Stand-in: model and sum aggregator as in the repo, a toy KG;
the table lookup is written with `index_select` instead of `[...]`.
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import random
import torch
import torch.nn.functional as F

class Aggregator(torch.nn.Module):
    def __init__(self, batch_size, dim, aggregator="sum"):
        super().__init__()
        self.batch_size, self.dim, self.aggregator = batch_size, dim, aggregator
        self.weights = torch.nn.Linear(dim, dim, bias=True)

    def forward(self, self_vectors, neighbor_vectors, neighbor_relations, user_embeddings, act):
        self.batch_size = user_embeddings.size(0)
        neighbors_agg = self._mix_neighbor_vectors(neighbor_vectors, neighbor_relations, user_embeddings)
        output = (self_vectors + neighbors_agg).view((-1, self.dim))
        output = self.weights(output)
        return act(output.view((self.batch_size, -1, self.dim)))

    def _mix_neighbor_vectors(self, neighbor_vectors, neighbor_relations, user_embeddings):
        user_embeddings = user_embeddings.view((self.batch_size, 1, 1, self.dim))
        user_relation_scores = (user_embeddings * neighbor_relations).sum(dim=-1)
        user_relation_scores_normalized = F.softmax(user_relation_scores, dim=-1).unsqueeze(dim=-1)
        return (user_relation_scores_normalized * neighbor_vectors).sum(dim=2)

class KGCN(torch.nn.Module):
    def __init__(self, num_user, num_ent, num_rel, kg, args, device):
        super().__init__()
        self.num_user, self.num_ent, self.num_rel = num_user, num_ent, num_rel
        self.n_iter, self.batch_size, self.dim = args["n_iter"], args["batch_size"], args["dim"]
        self.n_neighbor = args["neighbor_sample_size"]
        self.kg = kg
        self.device = device
        self.aggregator = Aggregator(self.batch_size, self.dim, args["aggregator"])
        self._gen_adj()
        self.usr = torch.nn.Embedding(num_user, args["dim"])
        self.ent = torch.nn.Embedding(num_ent, args["dim"])
        self.rel = torch.nn.Embedding(num_rel, args["dim"])

    def _gen_adj(self):
        self.adj_ent = torch.zeros(self.num_ent, self.n_neighbor, dtype=torch.long)
        self.adj_rel = torch.zeros(self.num_ent, self.n_neighbor, dtype=torch.long)
        for e in self.kg:
            if len(self.kg[e]) >= self.n_neighbor:
                neighbors = random.sample(self.kg[e], self.n_neighbor)
            else:
                neighbors = random.choices(self.kg[e], k=self.n_neighbor)
            self.adj_ent[e] = torch.LongTensor([ent for _, ent in neighbors])
            self.adj_rel[e] = torch.LongTensor([rel for rel, _ in neighbors])

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
            neighbor_entities = self.adj_ent.index_select(0, entities[h].view(-1)).view((self.batch_size, -1)).to(self.device)
            neighbor_relations = self.adj_rel.index_select(0, entities[h].view(-1)).view((self.batch_size, -1)).to(self.device)
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
                    user_embeddings=user_embeddings, act=act)
                entity_vectors_next_iter.append(vector)
            entity_vectors = entity_vectors_next_iter
        return entity_vectors[0].view((self.batch_size, self.dim))

random.seed(0)
num_user, num_entity, num_relation = 50, 120, 6
kg = {e: [(random.randrange(num_relation), random.randrange(num_entity)) for _ in range(5)]
      for e in range(num_entity)}
args = {"n_iter": 1, "batch_size": 32, "dim": 16, "neighbor_sample_size": 8, "aggregator": "sum"}
device = torch.device("cuda:0")
net = KGCN(num_user, num_entity, num_relation, kg, args, device).to(device)
criterion = torch.nn.BCELoss()
optimizer = torch.optim.Adam(net.parameters(), lr=5e-4, weight_decay=1e-4)
user_ids = torch.randint(0, num_user, (32,))
item_ids = torch.randint(0, num_entity, (32,))
labels = torch.randint(0, 2, (32,)).float()
'''
CELL = '''
user_ids, item_ids, labels = user_ids.to(device), item_ids.to(device), labels.to(device)
optimizer.zero_grad()
outputs = net(user_ids, item_ids)
loss = criterion(outputs, labels)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device",
                "indices should be either on cpu or on the same device as the indexed tensor")
CULPRITS = ["net.adj_ent"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "            neighbor_entities = self.adj_ent.index_select(0, entities[h].view(-1)).view((self.batch_size, -1)).to(self.device)\n"
    "            neighbor_relations = self.adj_rel.index_select(0, entities[h].view(-1)).view((self.batch_size, -1)).to(self.device)\n",
    "            neighbor_entities = self.adj_ent.index_select(0, entities[h].view(-1).cpu()).view((self.batch_size, -1)).to(self.device)\n"
    "            neighbor_relations = self.adj_rel.index_select(0, entities[h].view(-1).cpu()).view((self.batch_size, -1)).to(self.device)\n")
CLEAN = False
