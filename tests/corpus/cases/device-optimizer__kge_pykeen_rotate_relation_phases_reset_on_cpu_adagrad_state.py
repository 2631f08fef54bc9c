"""PyKEEN RotatE on a GPU: relation embeddings re-initialised on the CPU, Adagrad's `sum` state stays there.

Source: https://github.com/pykeen/pykeen/issues/24
`pipeline(dataset=Kinships, model='RotatE', ...)` on a GPU machine failed in the optimizer step:
`state['sum'].addcmul_(1, grad, grad)` -> "expected device cpu but got device cuda:0". The fix (PR #26,
"Fix RotatE relation embeddings re-initialization: the relation embeddings have been always
re-initialized on 'cpu' irrespective of the model's device") creates the random phases in
`RotatE._reset_parameters_` with `device=self.device`. The model is moved to its device in `__init__`,
then reset (relations back on the CPU), then Adagrad allocates its per-parameter `sum` next to each
parameter; the training loop's `self.model.to(self.device)` moves the parameters but not that state.
Stand-in: pykeen 1.0's Model/RotatE/training loop, reduced; the reset assigns a new Parameter where
pykeen assigned `.weight.data` (the simulation cannot change a parameter's device through `.data`),
the entity xavier init is left out, and `loss.backward()` is replaced by unit gradients.
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import numpy as np
import torch
from torch import nn


class Model(nn.Module):
    """pykeen.models.base.Model (1.0.x): resolves its device once, reset after __init__."""

    def __init__(self, num_entities, num_relations, preferred_device=None):
        super().__init__()
        self.num_entities = num_entities
        self.num_relations = num_relations
        self.device = torch.device(preferred_device or "cpu")

    def to_device_(self):
        self.to(self.device)
        return self

    def reset_parameters_(self):
        self._reset_parameters_()
        self.post_parameter_update()
        return self

    def post_parameter_update(self):
        pass


class RotatE(Model):
    def __init__(self, num_entities, num_relations, embedding_dim=16, preferred_device=None):
        super().__init__(num_entities, num_relations, preferred_device)
        self.real_embedding_dim = embedding_dim
        self.embedding_dim = 2 * embedding_dim
        self.entity_embeddings = nn.Embedding(num_entities, self.embedding_dim)
        self.relation_embeddings = nn.Embedding(num_relations, self.embedding_dim)
        self.to_device_()
        self.reset_parameters_()          # pykeen's _new_init hook runs this after __init__

    def _reset_parameters_(self):
        # phases randomly between 0 and 2 pi
        phases = 2 * np.pi * torch.rand(self.num_relations, self.real_embedding_dim)
        relations = torch.stack([torch.cos(phases), torch.sin(phases)], dim=-1).detach()
        self.relation_embeddings.weight = nn.Parameter(relations.view(self.num_relations, self.embedding_dim))

    def score_hrt(self, h, r, t):
        h = self.entity_embeddings(h).view(-1, self.real_embedding_dim, 2)
        r = self.relation_embeddings(r).view(-1, self.real_embedding_dim, 2)
        t = self.entity_embeddings(t).view(-1, self.real_embedding_dim, 2)
        h_re, h_im = h.unbind(dim=-1)
        r_re, r_im = r.unbind(dim=-1)
        t_re, t_im = t.unbind(dim=-1)
        re = h_re * r_re - h_im * r_im - t_re
        im = h_re * r_im + h_im * r_re - t_im
        return -(re ** 2 + im ** 2).sum(dim=-1).sqrt()


class SLCWATrainingLoop:
    def __init__(self, model, optimizer, heads, relations, tails):
        self.model = model
        self.optimizer = optimizer
        self.heads, self.relations, self.tails = heads, relations, tails

    @property
    def device(self):
        return self.model.device

    def train(self, num_epochs=1):
        # Ensure the model is on the correct device
        self.model = self.model.to(self.device)
        losses = []
        for _ in range(num_epochs):
            h = self.heads.to(self.device)
            r = self.relations.to(self.device)
            t = self.tails.to(self.device)
            neg_t = torch.randint(0, self.model.num_entities, t.shape, device=self.device)
            self.optimizer.zero_grad()
            pos = self.model.score_hrt(h, r, t)
            neg = self.model.score_hrt(h, r, neg_t)
            loss = torch.relu(1.0 + neg - pos).mean()
            for p in self.model.parameters():       # stands in for loss.backward()
                p.grad = torch.ones_like(p)
            self.optimizer.step()
            losses.append(loss)
        return losses


# Kinships: 104 entities, 25 relations
heads = torch.randint(0, 104, (256,))
relations = torch.randint(0, 25, (256,))
tails = torch.randint(0, 104, (256,))
model = RotatE(num_entities=104, num_relations=25, preferred_device="cuda:0")
optimizer = torch.optim.Adagrad(model.parameters(), lr=0.01)      # pipeline's default optimizer
training_loop = SLCWATrainingLoop(model, optimizer, heads, relations, tails)
'''
CELL = '''
losses = training_loop.train(num_epochs=1)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "phases = 2 * np.pi * torch.rand(self.num_relations, self.real_embedding_dim)",
    "phases = 2 * np.pi * torch.rand(self.num_relations, self.real_embedding_dim, device=self.device)",
)
CLEAN = False
