"""PyKEEN sLCWA training on cuda:0 with `negative_sampler_kwargs=dict(filtered=True)`: the Bloom filterer stays on the CPU.

Source: https://github.com/pykeen/pykeen/issues/799
Following the docs' "identifying false negatives during training" and adding
`negative_sampler_kwargs=dict(filtered=True)` to a RotatE pipeline on `device="cuda:0"` raised a
device error; without it training worked. The negative sampler was a plain object holding a
`BloomFilterer` (an `nn.Module` whose `bit_array`/`mersenne` buffers are built on the CPU), so
nothing moved the filterer to the model's device, and hashing the CUDA negative batch against the
CPU buffers failed. The fix (PR #801, "Fix filterer's device") made `NegativeSampler` an
`nn.Module` and moved it `.to(self.device)` in the training loop, i.e. put the filterer on the
model's device.
Stand-in: pykeen 1.7's BloomFilterer, NegativeSampler/BasicNegativeSampler and an sLCWA training
loop as `pipeline(...)` builds it (scores only; no backward on the simulated device; `~` written as
`torch.logical_not` and the bit lookup as `index_select`, which the simulation supports on fake cuda).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import math
import torch
from torch import nn


class Filterer(nn.Module):
    def forward(self, negative_batch):
        return torch.logical_not(self.contains(batch=negative_batch))


class BloomFilterer(Filterer):
    def __init__(self, mapped_triples, error_rate=0.001):
        super().__init__()
        self.ideal_num_elements = mapped_triples.shape[0]
        size = self.num_bits(num=self.ideal_num_elements, error_rate=error_rate)
        self.register_buffer(name="bit_array", tensor=torch.zeros(size, dtype=torch.bool))
        self.register_buffer(
            name="mersenne",
            tensor=torch.as_tensor(data=[2**x - 1 for x in [17, 19, 31]], dtype=torch.long).unsqueeze(dim=0),
        )
        self.rounds = self.num_probes(num_elements=self.ideal_num_elements, num_bits=size)
        self.add(triples=mapped_triples)
        self.error_rate = error_rate

    @staticmethod
    def num_bits(num, error_rate=0.01):
        return int(math.ceil(-1 * num * math.log(error_rate) / math.log(2) ** 2))

    @staticmethod
    def num_probes(num_elements, num_bits):
        return int(math.ceil((num_bits / num_elements) * math.log(2)))

    def probe(self, batch):
        # pre-hash
        x = (self.mersenne * batch).sum(dim=-1)
        for _ in range(self.rounds):
            x = x ^ (x >> 16)
            x = x * 0x7FEB352D
            x = x ^ (x >> 15)
            x = x * 0x846CA68B
            x = x ^ (x >> 16)
            yield x % self.bit_array.shape[0]

    def add(self, triples):
        for i in self.probe(batch=triples):
            self.bit_array[i] = True

    def contains(self, batch):
        result = batch.new_ones(batch.shape[:-1], dtype=torch.bool)
        for i in self.probe(batch):
            result &= torch.index_select(self.bit_array, 0, i.view(-1)).view(i.shape)
        return result


class NegativeSampler:
    """pykeen.sampling.NegativeSampler (1.7.0): a plain class, not an nn.Module."""

    def __init__(self, num_entities, mapped_triples, num_negs_per_pos=None, filtered=False):
        self.num_entities = num_entities
        self.num_negs_per_pos = num_negs_per_pos if num_negs_per_pos is not None else 1
        self.filterer = BloomFilterer(mapped_triples=mapped_triples) if filtered else None

    def sample(self, positive_batch):
        negative_batch = self.corrupt_batch(positive_batch=positive_batch)
        if self.filterer is None:
            return negative_batch, None
        return negative_batch, self.filterer(negative_batch=negative_batch)


class BasicNegativeSampler(NegativeSampler):
    def corrupt_batch(self, positive_batch):
        device = positive_batch.device
        batch_size = positive_batch.shape[0]
        corrupt_head = torch.randn(batch_size, 1, device=device) < 0.0   # head or tail, 50:50
        column = torch.arange(3, device=device).unsqueeze(0)
        replace = (corrupt_head & (column == 0)) | (torch.logical_not(corrupt_head) & (column == 2))
        random_entities = torch.randint(0, self.num_entities, (batch_size, 1), device=device)
        return torch.where(replace, random_entities, positive_batch).unsqueeze(1)


class RotatE(nn.Module):
    def __init__(self, num_entities, num_relations, embedding_dim=200):
        super().__init__()
        self.entity_embeddings = nn.Embedding(num_entities, 2 * embedding_dim)
        self.relation_embeddings = nn.Embedding(num_relations, 2 * embedding_dim)

    def score_hrt(self, hrt_batch):
        h_idx, r_idx, t_idx = hrt_batch.unbind(dim=-1)
        h = torch.view_as_complex(self.entity_embeddings(h_idx).view(*h_idx.shape, -1, 2))
        r = torch.view_as_complex(self.relation_embeddings(r_idx).view(*r_idx.shape, -1, 2))
        t = torch.view_as_complex(self.entity_embeddings(t_idx).view(*t_idx.shape, -1, 2))
        return -(h * (r / r.abs()) - t).abs().sum(dim=-1)


class SLCWATrainingLoop:
    def __init__(self, model, mapped_triples, num_entities, device, negative_sampler_kwargs=None):
        self.model = model
        self.device = torch.device(device)
        self.mapped_triples = mapped_triples
        self.negative_sampler = BasicNegativeSampler(num_entities, mapped_triples, **(negative_sampler_kwargs or {}))

    def train(self, num_epochs=1, batch_size=128):
        losses = []
        for _ in range(num_epochs):
            for positive_batch in self.mapped_triples.split(batch_size):
                positive_batch = positive_batch.to(self.device)
                negative_batch, positive_filter = self.negative_sampler.sample(positive_batch=positive_batch)
                positive_scores = self.model.score_hrt(positive_batch)
                negative_scores = self.model.score_hrt(negative_batch).squeeze(1)
                if positive_filter is not None:
                    negative_scores = torch.where(positive_filter.squeeze(1), negative_scores, torch.zeros_like(negative_scores))
                losses.append(nn.functional.softplus(negative_scores - positive_scores).mean())
        return losses


num_entities, num_relations = 500, 20
mapped_triples = torch.stack([torch.randint(0, num_entities, (1024,)), torch.randint(0, num_relations, (1024,)),
                              torch.randint(0, num_entities, (1024,))], dim=1)
device = "cuda:0"
model = RotatE(num_entities, num_relations).to(device)
training_loop = SLCWATrainingLoop(model, mapped_triples, num_entities, device=device,
                                  negative_sampler_kwargs=dict(filtered=True))
'''
CELL = '''
losses = training_loop.train(num_epochs=1, batch_size=128)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["training_loop.negative_sampler.filterer"]
FIX = "namespace"
REFERENCE_FIX = '''
training_loop.negative_sampler.filterer.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
