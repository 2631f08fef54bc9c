"""Tevatron dense-retriever training on two visible GPUs: DataParallel does not scatter the collator's `BatchEncoding` inputs, so the cuda:1 replica gets cuda:0 token ids.

Source: https://github.com/texttron/tevatron/issues/117
Running `CUDA_VISIBLE_DEVICES=0,1 python -m tevatron.driver.train ...` (no torchrun, so the HF Trainer
wraps the DenseModel in `nn.DataParallel`) failed in the encoder's embedding with "Expected all
tensors to be on the same device, but found at least two devices, cuda:1 and cuda:0! (when checking
argument for argument index in method wrapper__index_select)". The query/passage batches are
tokenizer `BatchEncoding`s (a UserDict, not a dict): DataParallel's scatter only splits tensors, lists
and dicts, so the replica on cuda:1 receives the whole cuda:0 batch (the thread has no confirmed diagnosis; the
maintainer pointed at the distributed options; this is the mechanism the message and setup imply). Stand-in: DenseModel with a
tiny encoder; DataParallel's replicate/scatter/parallel-apply written out (the fake-cuda simulation
has no NCCL), with the same type rules as torch's `scatter_map`.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import copy
from collections import UserDict
import torch
import torch.nn.functional as F
from torch import nn

class BatchEncoding(UserDict):                      # transformers.BatchEncoding
    def to(self, device):
        self.data = {k: v.to(device) for k, v in self.data.items()}
        return self

class TinyEncoder(nn.Module):
    def __init__(self, vocab=1000, hidden=32):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, hidden)
        self.layer = nn.Sequential(nn.Linear(hidden, hidden), nn.Tanh())

    def forward(self, input_ids, attention_mask):
        h = self.layer(self.embeddings(input_ids))
        return h.narrow(1, 0, 1).squeeze(1)          # [CLS] pooling

class DenseModel(nn.Module):
    def __init__(self, lm_q, lm_p):
        super().__init__()
        self.lm_q, self.lm_p = lm_q, lm_p

    def forward(self, query=None, passage=None):
        q_reps = self.lm_q(**query)
        p_reps = self.lm_p(**passage)
        scores = torch.matmul(q_reps, p_reps.transpose(0, 1))
        target = torch.arange(scores.size(0), device=scores.device) * (p_reps.size(0) // q_reps.size(0))
        return F.cross_entropy(scores, target)

def scatter(obj, devices, chunks):
    # torch.nn.parallel.scatter_gather.scatter_map: tensors, tuples, lists and dicts are split;
    # anything else is handed to every replica as it is
    if isinstance(obj, torch.Tensor):
        return [c.to(d) for c, d in zip(obj.chunk(chunks), devices)]
    if isinstance(obj, dict) and len(obj) > 0:
        parts = [scatter(v, devices, chunks) for v in obj.values()]
        return [type(obj)(zip(obj.keys(), vals)) for vals in zip(*parts)]
    return [obj for _ in devices]

class DataParallel(nn.Module):
    def __init__(self, module, device_ids):
        super().__init__()
        self.module, self.device_ids = module, device_ids
        self.src_device = torch.device(f"cuda:{device_ids[0]}")

    def forward(self, **kwargs):
        devices = [torch.device(f"cuda:{i}") for i in self.device_ids]
        replicas = [self.module] + [copy.deepcopy(self.module).to(d) for d in devices[1:]]
        kwargs_per_replica = scatter(kwargs, devices, len(devices))
        outputs = [r(**kw) for r, kw in zip(replicas, kwargs_per_replica)]
        return torch.stack([o.to(self.src_device) for o in outputs]).mean()

encoder = TinyEncoder()
model = DenseModel(lm_q=encoder, lm_p=copy.deepcopy(encoder)).to("cuda:0")
model = DataParallel(model, device_ids=[0, 1])       # what the HF Trainer does when n_gpu > 1
q_collated = BatchEncoding({"input_ids": torch.randint(1, 1000, (4, 16)), "attention_mask": torch.ones(4, 16, dtype=torch.long)})
p_collated = BatchEncoding({"input_ids": torch.randint(1, 1000, (8, 32)), "attention_mask": torch.ones(8, 32, dtype=torch.long)})
inputs = {"query": q_collated.to("cuda:0"), "passage": p_collated.to("cuda:0")}   # Trainer._prepare_inputs
'''
CELL = '''
with torch.no_grad():
    loss = model(**inputs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["inputs['query']"]
FIX = "namespace"
REFERENCE_FIX = '''
inputs = {k: dict(v) for k, v in inputs.items()}
'''
REFERENCE_EDIT = None
CLEAN = False
