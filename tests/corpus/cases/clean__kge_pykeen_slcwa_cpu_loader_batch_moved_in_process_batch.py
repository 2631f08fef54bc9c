"""PyKEEN sLCWA training step: positives and negatives come from the CPU data loader and are moved in `_process_batch_static`.

Source: https://github.com/pykeen/pykeen/blob/master/src/pykeen/training/slcwa.py
The sLCWA data loader samples negatives on the CPU and yields a dict batch (`"positives"`,
`"negatives"`, optional `"masks"`); `SLCWATrainingLoop._process_batch_static` slices it and sends
each part `.to(model.device)` ("Ensure they reside on the device") before scoring. A dict of CPU
index tensors in the namespace next to a cuda:0 model is the intended input. Look-alike: it runs.
Stand-in: the batch step and a margin-ranking `process_slcwa_scores` for a TransE model (no
filter, no weights, no regularizer; no backward on the simulated device).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn


class MarginRankingLoss(nn.Module):
    def __init__(self, margin=1.0):
        super().__init__()
        self.margin = margin

    def process_slcwa_scores(self, positive_scores, negative_scores, label_smoothing=None, batch_filter=None,
                             num_entities=None, pos_weights=None, neg_weights=None):
        return torch.relu(self.margin + negative_scores - positive_scores.unsqueeze(-1)).mean()


class TransE(nn.Module):
    def __init__(self, num_entities, num_relations, embedding_dim=50):
        super().__init__()
        self.num_entities = num_entities
        self.entity_embeddings = nn.Embedding(num_entities, embedding_dim)
        self.relation_embeddings = nn.Embedding(num_relations, embedding_dim)

    @property
    def device(self):
        return self.entity_embeddings.weight.device

    def _get_entity_len(self, mode=None):
        return self.num_entities

    def collect_regularization_term(self):
        return 0.0

    def score_hrt(self, hrt_batch, mode=None):
        h, r, t = hrt_batch.unbind(dim=-1)
        return -torch.norm(self.entity_embeddings(h) + self.relation_embeddings(r) - self.entity_embeddings(t),
                           p=1, dim=-1)


class SLCWATrainingLoop:
    def __init__(self, model, loss):
        self.model = model
        self.loss = loss

    @staticmethod
    def _process_batch_static(model, loss, mode, batch, start, stop, label_smoothing=0.0, slice_size=None):
        if slice_size is not None:
            raise AttributeError("Slicing is not possible for sLCWA training loops.")
        # split batch
        positive_batch = batch["positives"]
        negative_batch = batch["negatives"]
        positive_filter = batch.get("masks")
        # send to device
        positive_batch = positive_batch[start:stop].to(device=model.device)
        negative_batch = negative_batch[start:stop]
        # Make it negative batch broadcastable (required for num_negs_per_pos > 1).
        negative_score_shape = negative_batch.shape[:-1]
        negative_batch = negative_batch.view(-1, 3)
        # Ensure they reside on the device
        negative_batch = negative_batch.to(model.device)
        positive_scores = model.score_hrt(positive_batch, mode=mode)
        negative_scores = model.score_hrt(negative_batch, mode=mode).view(*negative_score_shape)
        return (
            loss.process_slcwa_scores(
                positive_scores=positive_scores,
                negative_scores=negative_scores,
                label_smoothing=label_smoothing,
                batch_filter=positive_filter,
                num_entities=model._get_entity_len(mode=mode),
            )
            + model.collect_regularization_term()
        )


num_entities, num_relations, num_negs = 14, 55, 2       # nations
model = TransE(num_entities, num_relations).to("cuda:0")
training_loop = SLCWATrainingLoop(model, MarginRankingLoss())
positives = torch.stack([torch.randint(0, num_entities, (64,)), torch.randint(0, num_relations, (64,)),
                         torch.randint(0, num_entities, (64,))], dim=-1)
batch = {"positives": positives, "negatives": positives.unsqueeze(1).repeat(1, num_negs, 1)}   # CPU collate output
'''
CELL = '''
loss = training_loop._process_batch_static(model, training_loop.loss, None, batch, start=0, stop=64)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
