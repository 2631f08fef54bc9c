"""PyKEEN sLCWA + NSSALoss with filtered negatives on cuda:0: the positive filter mask stays on the CPU.

Source: https://github.com/pykeen/pykeen/issues/935
With `negative_sampler_kwargs=dict(filtered=True)` and `loss="NSSALoss"` (or CrossEntropyLoss) on a
GPU, training still failed after #801 in `prepare_negative_scores_for_softmax` at
`negative_scores_[batch_filter] = negative_scores` with "Expected all tensors to be on the same
device, but found at least two devices, cuda:0 and cpu!". Negative sampling (and its filter mask)
runs in the CPU data loader; `_process_batch_static` moves the positive and negative triples to
the model's device but not `positive_filter`, so the dense score buffer `zeros_like(batch_filter)`
is built on the CPU. The fix (PR #936, "Add missing device") adds
`positive_filter = positive_filter.to(model.device)`.
Stand-in: pykeen's sLCWA batch step and NSSA loss, reduced; the negatives are scored unfiltered and
`negative_scores_[batch_filter] = ...` is written as `masked_scatter_` (the simulation cannot index
by a boolean mask); no backward on the simulated device.
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F


def prepare_negative_scores_for_softmax(batch_filter, negative_scores, no_inf_rows):
    # (dense) softmax requires unfiltered scores / masking
    negative_scores_ = torch.zeros_like(batch_filter, dtype=negative_scores.dtype)
    negative_scores_.masked_scatter_(batch_filter, negative_scores)
    # we need to fill the scores with -inf for all filtered negative examples
    # EXCEPT if all negative samples are filtered (since softmax over only -inf yields nan)
    fill_mask = torch.logical_not(batch_filter) & torch.logical_not(no_inf_rows.view(-1, 1))
    return negative_scores_.masked_fill(fill_mask, float("-inf"))


class NSSALoss(nn.Module):
    def __init__(self, margin=9.0, adversarial_temperature=1.0):
        super().__init__()
        self.margin = margin
        self.inverse_softmax_temperature = adversarial_temperature

    def process_slcwa_scores(self, positive_scores, negative_scores, batch_filter=None):
        if batch_filter is not None:
            no_inf_rows = batch_filter.any(dim=-1)
            negative_scores = prepare_negative_scores_for_softmax(batch_filter, negative_scores, no_inf_rows)
        neg_distances = -negative_scores
        negative_loss = (F.softmax(-neg_distances * self.inverse_softmax_temperature, dim=-1).detach()
                         * F.logsigmoid(neg_distances - self.margin)).sum(dim=-1).mean()
        positive_loss = F.logsigmoid(self.margin + positive_scores).mean()
        return -positive_loss - negative_loss


class RotatE(nn.Module):
    def __init__(self, num_entities, num_relations, embedding_dim=64):
        super().__init__()
        self.entity_embeddings = nn.Embedding(num_entities, 2 * embedding_dim)
        self.relation_embeddings = nn.Embedding(num_relations, 2 * embedding_dim)

    @property
    def device(self):
        return self.entity_embeddings.weight.device

    def score_hrt(self, hrt_batch):
        h_idx, r_idx, t_idx = hrt_batch.unbind(dim=-1)
        h = torch.view_as_complex(self.entity_embeddings(h_idx).view(*h_idx.shape, -1, 2))
        r = torch.view_as_complex(self.relation_embeddings(r_idx).view(*r_idx.shape, -1, 2))
        t = torch.view_as_complex(self.entity_embeddings(t_idx).view(*t_idx.shape, -1, 2))
        return -(h * (r / r.abs()) - t).abs().sum(dim=-1)


class SLCWATrainingLoop:
    def __init__(self, model, loss):
        self.model = model
        self.loss = loss

    def _process_batch(self, batch, start, stop):
        return self._process_batch_static(self.model, self.loss, batch, start, stop)

    @staticmethod
    def _process_batch_static(model, loss, batch, start, stop):
        positive_batch, negative_batch, positive_filter = batch
        # send positives to device
        positive_batch = positive_batch[start:stop].to(device=model.device)
        # send negatives to device
        negative_batch = negative_batch[start:stop].to(device=model.device)
        if positive_filter is not None:
            positive_filter = positive_filter[start:stop]
        positive_scores = model.score_hrt(positive_batch)
        negative_scores = model.score_hrt(negative_batch)
        return loss.process_slcwa_scores(positive_scores=positive_scores, negative_scores=negative_scores,
                                         batch_filter=positive_filter)


num_entities, num_relations, num_negs = 14, 55, 4        # nations
model = RotatE(num_entities, num_relations).to("cuda:0")
training_loop = SLCWATrainingLoop(model=model, loss=NSSALoss())
# what the CPU data loader yields: positives, negatives and the Bloom-filter mask (True = keep)
positive_batch = torch.stack([torch.randint(0, num_entities, (32,)), torch.randint(0, num_relations, (32,)),
                              torch.randint(0, num_entities, (32,))], dim=-1)
negative_batch = positive_batch.unsqueeze(1).repeat(1, num_negs, 1)
positive_filter = torch.rand(32, num_negs) > 0.1
batch = (positive_batch, negative_batch, positive_filter)
'''
CELL = '''
loss = training_loop._process_batch(batch, start=0, stop=32)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["training_loop"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "            positive_filter = positive_filter[start:stop]\n",
    "            positive_filter = positive_filter[start:stop]\n            positive_filter = positive_filter.to(model.device)\n",
)
CLEAN = False
