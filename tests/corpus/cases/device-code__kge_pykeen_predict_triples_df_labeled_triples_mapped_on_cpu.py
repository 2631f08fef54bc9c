"""PyKEEN `predict_triples_df` with labeled triples on a GPU model: the mapped ID triples stay on the CPU.

Source: https://github.com/pykeen/pykeen/issues/654
Running the docstring example `predict_triples_df(model=result.model, triples=("uk", "conferences",
"brazil"), triples_factory=result.training)` after `pipeline(dataset="nations", model="TransE")` with
CUDA available raised "Expected all tensors to be on the same device, but found at least two devices,
cuda:0 and cpu! (when checking argument for argument index in method wrapper__index_select)". The
labels are mapped to an ID tensor on the CPU and handed to `Model.predict_hrt`, which scores them
against the GPU embeddings; the fix (PR #658, "Move triples to device for all predict_* methods")
calls `self.score_hrt(hrt_batch.to(self.device))` in `predict_hrt`.
Stand-in: pykeen 1.6's TransE, Embedding wrapper, TriplesFactory.map_triples, `_predict_triples`
and `predict_triples_df` (returning columns instead of a DataFrame), and a `pipeline` that returns a
trained-on-GPU model; the score unpacks columns with `unbind` (the simulation cannot slice fake
cuda tensors).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
from torch import nn


class Embedding(nn.Module):
    """pykeen.nn.emb.Embedding: a representation module around nn.Embedding."""

    def __init__(self, num_embeddings, embedding_dim):
        super().__init__()
        self._embeddings = nn.Embedding(num_embeddings, embedding_dim)

    def forward(self, indices=None):
        if indices is None:
            return self._embeddings.weight
        return self._embeddings(indices)


class TransE(nn.Module):
    predict_with_sigmoid = False

    def __init__(self, num_entities, num_relations, embedding_dim=50, preferred_device=None):
        super().__init__()
        self.device = torch.device(preferred_device or "cpu")
        self.entity_embeddings = Embedding(num_entities, embedding_dim)
        self.relation_embeddings = Embedding(num_relations, embedding_dim)
        self.to(self.device)

    def score_hrt(self, hrt_batch):
        h_idx, r_idx, t_idx = hrt_batch.unbind(dim=1)
        h = self.entity_embeddings(indices=h_idx)
        r = self.relation_embeddings(indices=r_idx)
        t = self.entity_embeddings(indices=t_idx)
        return -torch.norm(h + r - t, p=1, dim=-1, keepdim=True)

    def predict_hrt(self, hrt_batch):
        self.eval()  # Enforce evaluation mode
        scores = self.score_hrt(hrt_batch)
        if self.predict_with_sigmoid:
            scores = torch.sigmoid(scores)
        return scores


class TriplesFactory:
    def __init__(self, entity_to_id, relation_to_id):
        self.entity_to_id = entity_to_id
        self.relation_to_id = relation_to_id

    def map_triples(self, triples):
        triples = np.asarray(triples, dtype=str).reshape(-1, 3)
        ids = [[self.entity_to_id[h], self.relation_to_id[r], self.entity_to_id[t]] for h, r, t in triples]
        return torch.as_tensor(ids, dtype=torch.long)

    def tensor_to_df(self, tensor, score):
        # pykeen builds a DataFrame with the labels next to the IDs; columns kept as tensors here
        return dict(head_id=tensor.select(1, 0), relation_id=tensor.select(1, 1), tail_id=tensor.select(1, 2),
                    score=score)


def _predict_triples(model, mapped_triples, batch_size=None):
    if batch_size is None or batch_size >= mapped_triples.shape[0]:
        return model.predict_hrt(hrt_batch=mapped_triples)
    return torch.cat([model.predict_hrt(hrt_batch=b) for b in mapped_triples.split(batch_size, dim=0)], dim=0)


def predict_triples_df(model, triples, triples_factory=None, batch_size=None):
    if not torch.is_tensor(triples):
        # convert to ID-based
        triples = triples_factory.map_triples(triples)
    scores = _predict_triples(model=model, mapped_triples=triples, batch_size=batch_size).squeeze(dim=1)
    return scores if triples_factory is None else triples_factory.tensor_to_df(tensor=triples, score=scores)


class PipelineResult:
    def __init__(self, model, training):
        self.model = model
        self.training = training


def pipeline(dataset, model):
    entities = ["brazil", "burma", "china", "cuba", "egypt", "india", "indonesia", "israel", "jordan",
                "netherlands", "poland", "uk", "ussr", "usa"]
    relations = ["conferences", "embassy", "treaties", "tourism"] + [f"rel{i}" for i in range(51)]
    training = TriplesFactory({e: i for i, e in enumerate(entities)}, {r: i for i, r in enumerate(relations)})
    device = "cuda:0"                       # pykeen resolves the GPU when CUDA is available
    trained = TransE(len(entities), len(relations), preferred_device=device)
    return PipelineResult(model=trained, training=training)


result = pipeline(dataset="nations", model="TransE")
'''
CELL = '''
df = predict_triples_df(model=result.model, triples=("uk", "conferences", "brazil"), triples_factory=result.training)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["result.model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("scores = self.score_hrt(hrt_batch)", "scores = self.score_hrt(hrt_batch.to(self.device))")
CLEAN = False
