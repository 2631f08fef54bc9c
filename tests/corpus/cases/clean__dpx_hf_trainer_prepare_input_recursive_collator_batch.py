"""Look-alike: the Hugging Face Trainer moves a collator's nested CPU batch to the model's device recursively.

Source: https://github.com/huggingface/transformers/blob/main/src/transformers/trainer.py
A data collator returns a dict of CPU tensors (input_ids, attention_mask, labels with -100 padding)
and the Trainer's `_prepare_input` walks Mapping / tuple / list values and calls
`data.to(**{"device": self.args.device})` on every tensor before `model(**inputs)`. CPU batches next
to a GPU model, moved by the helper: nothing to report. Stand-in: the collator, `_prepare_input(s)`
and a tiny causal LM with a cross-entropy loss on cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from collections.abc import Mapping
import torch
from torch import nn

class TrainingArguments:
    device = torch.device("cuda:0")

def data_collator(features, pad_id=0):
    n = max(len(f["input_ids"]) for f in features)
    ids = torch.full((len(features), n), pad_id, dtype=torch.long)
    mask = torch.zeros((len(features), n), dtype=torch.long)
    for i, f in enumerate(features):
        ids[i, : len(f["input_ids"])] = torch.tensor(f["input_ids"])
        mask[i, : len(f["input_ids"])] = 1
    labels = ids.masked_fill(mask == 0, -100)
    return {"input_ids": ids, "attention_mask": mask, "labels": labels}

class Trainer:
    def __init__(self, model, args):
        self.model, self.args = model, args
    def _prepare_input(self, data):
        if isinstance(data, Mapping):
            return type(data)({k: self._prepare_input(v) for k, v in data.items()})
        if isinstance(data, (tuple, list)):
            return type(data)(self._prepare_input(v) for v in data)
        if isinstance(data, torch.Tensor):
            return data.to(**{"device": self.args.device})
        return data
    def _prepare_inputs(self, inputs):
        return self._prepare_input(inputs)

class TinyLM(nn.Module):
    def __init__(self, vocab=50, dim=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.lm_head = nn.Linear(dim, vocab)
    def forward(self, input_ids, attention_mask, labels=None):
        h = self.embed(input_ids) * attention_mask[..., None]
        logits = self.lm_head(h)
        loss = nn.functional.cross_entropy(logits.flatten(0, 1), labels.flatten(), ignore_index=-100)
        return {"loss": loss, "logits": logits}

trainer = Trainer(TinyLM().to("cuda:0"), TrainingArguments())
batch = data_collator([{"input_ids": [5, 7, 9, 2]}, {"input_ids": [4, 8]}])
'''
CELL = '''
inputs = trainer._prepare_inputs(batch)
with torch.no_grad():
    outputs = trainer.model(**inputs)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
