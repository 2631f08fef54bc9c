"""PyKEEN `Model.predict_hrt` on a GPU model with CPU `mapped_triples`: `_prepare_batch` sends the batch to the model's device.

Source: https://github.com/pykeen/pykeen/blob/master/src/pykeen/models/base.py
Triples factories keep `mapped_triples` on the CPU; `Model.predict_hrt` calls
`self.score_hrt(self._prepare_batch(batch=hrt_batch, index_relation=1), mode=mode)` and
`_prepare_batch` starts with `batch = batch.to(self.device)` ("send to device"). Scoring the CPU
test triples of a dataset with a model trained on cuda:0 is the documented use. Look-alike: it runs.
Stand-in: Model.predict_hrt/_prepare_batch (no inverse triples) and a TransE `score_hrt` with an
embedding wrapper; the dataset is a random nations-sized factory.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn


class Embedding(nn.Module):
    def __init__(self, max_id, dim):
        super().__init__()
        self._embeddings = nn.Embedding(max_id, dim)

    def forward(self, indices=None):
        return self._embeddings.weight if indices is None else self._embeddings(indices)


class Model(nn.Module):
    use_inverse_triples = False
    predict_with_sigmoid = False

    @property
    def device(self):
        return next(self.parameters()).device

    def _prepare_batch(self, batch, index_relation):
        # send to device
        batch = batch.to(self.device)
        # special handling of inverse relations
        if not self.use_inverse_triples:
            return batch
        raise NotImplementedError

    def predict_hrt(self, hrt_batch, *, mode=None):
        self.eval()  # Enforce evaluation mode
        scores = self.score_hrt(self._prepare_batch(batch=hrt_batch, index_relation=1), mode=mode)
        if self.predict_with_sigmoid:
            scores = torch.sigmoid(scores)
        return scores


class TransE(Model):
    def __init__(self, num_entities, num_relations, embedding_dim=50):
        super().__init__()
        self.entity_representations = nn.ModuleList([Embedding(num_entities, embedding_dim)])
        self.relation_representations = nn.ModuleList([Embedding(num_relations, embedding_dim)])

    def score_hrt(self, hrt_batch, mode=None):
        h, r, t = hrt_batch.unbind(dim=-1)
        h = self.entity_representations[0](indices=h)
        r = self.relation_representations[0](indices=r)
        t = self.entity_representations[0](indices=t)
        return -torch.norm(h + r - t, p=2, dim=-1, keepdim=True)


class TriplesFactory:
    def __init__(self, mapped_triples):
        self.mapped_triples = mapped_triples


model = TransE(num_entities=14, num_relations=55).to("cuda:0")          # trained on the GPU
testing = TriplesFactory(torch.stack([torch.randint(0, 14, (201,)), torch.randint(0, 55, (201,)),
                                      torch.randint(0, 14, (201,))], dim=-1))
'''
CELL = '''
scores = model.predict_hrt(testing.mapped_triples)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
