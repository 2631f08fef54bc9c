"""PyKEEN's `Model._novel` builds the query triple on the model's CUDA device and compares it with the training triples, which stay on the CPU.

Source: https://github.com/pykeen/pykeen/issues/49
A user trained a TransE model on the GPU and called `model.predict_tails('entity', 'relation')`;
it failed in `_novel` with "expected device cuda:0 but got device cpu" (today: "Expected all
tensors to be on the same device ... cuda:0 and cpu"):
    triple = torch.tensor(data=[h, r, t], dtype=torch.long, device=self.device).view(1, 3)
    return (triple == self.triples_factory.mapped_triples).all(dim=1).any().item()
The fix (pykeen PR #50) compared against `self.triples_factory.mapped_triples.to(self.device)`.
Stand-in: a tiny TriplesFactory (label->id maps + a CPU `mapped_triples` LongTensor) and a
TransE-like Model holding it, keeping pykeen 1.0's predict_tails -> _novel structure; predictions
are returned as a list instead of a pandas DataFrame and `_novel` returns the 0-dim bool tensor
instead of `.item()`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class TriplesFactory:
    def __init__(self, triples):
        entities = sorted({h for h, _, _ in triples} | {t for _, _, t in triples})
        relations = sorted({r for _, r, _ in triples})
        self.entity_to_id = {e: i for i, e in enumerate(entities)}
        self.relation_to_id = {r: i for i, r in enumerate(relations)}
        self.num_entities, self.num_relations = len(entities), len(relations)
        self.mapped_triples = torch.tensor(
            [[self.entity_to_id[h], self.relation_to_id[r], self.entity_to_id[t]] for h, r, t in triples],
            dtype=torch.long,
        )

class TransE(nn.Module):
    def __init__(self, triples_factory, embedding_dim=16, preferred_device=None):
        super().__init__()
        self.triples_factory = triples_factory
        self.device = torch.device(preferred_device or "cpu")
        self.entity_embeddings = nn.Embedding(triples_factory.num_entities, embedding_dim)
        self.relation_embeddings = nn.Embedding(triples_factory.num_relations, embedding_dim)
        self.to(self.device)

    def score_t(self, hr_batch):
        h = self.entity_embeddings(hr_batch.select(1, 0)).unsqueeze(1)
        r = self.relation_embeddings(hr_batch.select(1, 1)).unsqueeze(1)
        t = self.entity_embeddings.weight.unsqueeze(0)
        return -torch.norm(h + r - t, dim=-1, p=1)

    def predict_scores_all_tails(self, hr_batch):
        self.eval()
        with torch.no_grad():
            return self.score_t(hr_batch)

    def _novel(self, h, r, t):
        """Return if the triple is novel with respect to the training triples."""
        triple = torch.tensor(data=[h, r, t], dtype=torch.long, device=self.device).view(1, 3)
        return (triple == self.triples_factory.mapped_triples).all(dim=1).any()

    def predict_tails(self, head_label, relation_label, add_novelties=True):
        head_id = self.triples_factory.entity_to_id[head_label]
        relation_id = self.triples_factory.relation_to_id[relation_label]
        batch = torch.tensor([[head_id, relation_id]], dtype=torch.long, device=self.device)
        scores = self.predict_scores_all_tails(batch).squeeze(0)
        rv = []
        for entity_label, entity_id in self.triples_factory.entity_to_id.items():
            row = [entity_id, entity_label, scores.select(0, entity_id)]
            if add_novelties:
                row.append(self._novel(head_id, relation_id, entity_id))
            rv.append(row)
        return rv

nations = [
    ("brazil", "intergovorgs", "usa"), ("uk", "conferences", "usa"), ("usa", "treaties", "uk"),
    ("china", "embassy", "india"), ("india", "conferences", "uk"), ("uk", "treaties", "brazil"),
    ("egypt", "embassy", "israel"), ("israel", "intergovorgs", "usa"), ("ussr", "treaties", "china"),
]
training = TriplesFactory(nations)
model = TransE(triples_factory=training, embedding_dim=16, preferred_device="cuda:0")
'''
CELL = '''
predictions = model.predict_tails("uk", "conferences")
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.triples_factory.mapped_triples"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "return (triple == self.triples_factory.mapped_triples).all(dim=1).any()",
    "return (triple == self.triples_factory.mapped_triples.to(self.device)).all(dim=1).any()",
)
CLEAN = False
