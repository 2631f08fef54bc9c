"""PyKEEN InductiveNodePieceGNN on a GPU: `SubsetRepresentationModule` builds its default indices on the CPU.

Source: https://github.com/pykeen/pykeen/issues/794
"When running `InductiveNodePieceGNN` or any other model with SubsetRepresentationModule on a GPU"
the embedding lookup failed with "Expected all tensors to be on the same device, but found at least
two devices, cuda:0 and cpu! (when checking argument for argument index in method
wrapper__index_select)". The reporter found "the reason is that default `indices` created in the
`None` case are kept always on a CPU" (`indices = torch.arange(self.max_id)`); the fix (PR #800)
creates them with `device=self.device`. The GNN model asks for all relation representations
(`self.relation_representations[0]()`, no indices) before message passing.
Stand-in: pykeen 1.7's Embedding / SubsetRepresentationModule (hiding the padding relation) and a
reduced InductiveNodePieceGNN whose `_get_representations` runs one linear message-passing layer.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn


class RepresentationModule(nn.Module):
    @property
    def device(self):
        return next(self.parameters()).device


class Embedding(RepresentationModule):
    def __init__(self, max_id, embedding_dim):
        super().__init__()
        self.max_id = max_id
        self._embeddings = nn.Embedding(max_id, embedding_dim)

    def forward(self, indices=None):
        if indices is None:
            return self._embeddings.weight
        return self._embeddings(indices)


class SubsetRepresentationModule(RepresentationModule):
    """A representation module, which only exposes a subset of representations of its base."""

    def __init__(self, base, max_id):
        super().__init__()
        self.base = base
        self.max_id = max_id

    def forward(self, indices=None):
        if indices is None:
            indices = torch.arange(self.max_id)
        return self.base.forward(indices=indices)


class InductiveNodePieceGNN(nn.Module):
    def __init__(self, num_entities, num_relations, embedding_dim=64):
        super().__init__()
        self.entity_representations = nn.ModuleList([Embedding(num_entities, embedding_dim)])
        self.relation_representations = nn.ModuleList([
            SubsetRepresentationModule(  # hide padding relation
                base=Embedding(2 * num_relations + 1, embedding_dim), max_id=2 * num_relations,
            )
        ])
        self.gnn_encoder = nn.ModuleList([nn.Linear(2 * embedding_dim, embedding_dim)])

    def _get_representations(self, h, r, t):
        x_e, x_r = self.entity_representations[0](), self.relation_representations[0]()
        messages = torch.cat([x_e, x_r.mean(dim=0, keepdim=True).expand_as(x_e)], dim=-1)
        for layer in self.gnn_encoder:
            x_e = torch.relu(layer(messages))
        return x_e.index_select(0, h), x_r.index_select(0, r), x_e.index_select(0, t)

    def score_hrt(self, h, r, t):
        h, r, t = self._get_representations(h, r, t)
        return (h * r * t).sum(dim=-1)


device = torch.device("cuda:0")
model = InductiveNodePieceGNN(num_entities=10184, num_relations=48).to(device)
h = torch.randint(0, 10184, (256,), device=device)
r = torch.randint(0, 96, (256,), device=device)
t = torch.randint(0, 10184, (256,), device=device)
'''
CELL = '''
scores = model.score_hrt(h, r, t)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.relation_representations[0]"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("indices = torch.arange(self.max_id)", "indices = torch.arange(self.max_id, device=self.device)")
CLEAN = False
