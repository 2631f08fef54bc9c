"""Look-alike: accelerate's nlp_example evaluation: predictions and labels come off cuda:0 through `gather_for_metrics`, and the GLUE metric keeps its accumulated batches on the CPU.

Source: https://github.com/huggingface/accelerate/blob/main/examples/nlp_example.py
The eval loop runs the prepared model on device batches, takes `outputs.logits.argmax(dim=-1)`, gathers
`(predictions, batch["labels"])` with `accelerator.gather_for_metrics` and hands them to
`metric.add_batch(predictions=..., references=...)`; the `evaluate` metric converts and stores what it is given
host-side and computes at the end. Tensors on the CPU inside the metric next to a cuda:0 model are by design.
Stand-ins: an `Accelerator` whose `gather_for_metrics` returns its input unchanged (one process), a metric
that stores `.cpu()` copies and computes accuracy/F1 with torch, a dict-like batch with `.to()` and a small
sequence classifier.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from collections import UserDict
from types import SimpleNamespace
import torch
import torch.nn as nn


class BatchEncoding(UserDict):
    def to(self, device):
        self.data = {k: v.to(device) for k, v in self.data.items()}
        return self


class Accelerator:
    def __init__(self):
        self.device = torch.device("cuda:0")

    def gather_for_metrics(self, input_data):
        return input_data                     # single process: nothing to gather or drop


class GlueMetric:
    """evaluate.load("glue", "mrpc") stand-in: batches are stored host-side, computed at the end."""
    def __init__(self):
        self.predictions, self.references = [], []

    def add_batch(self, predictions, references):
        self.predictions.append(predictions.cpu())
        self.references.append(references.cpu())

    def compute(self):
        p, r = torch.cat(self.predictions), torch.cat(self.references)
        tp = ((p == 1) & (r == 1)).sum().float()
        return {"accuracy": (p == r).float().mean(),
                "f1": 2 * tp / ((p == 1).sum() + (r == 1).sum()).clamp(min=1).float()}


class SequenceClassifier(nn.Module):
    def __init__(self, vocab=100, dim=16, num_labels=2):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, dim)
        self.classifier = nn.Linear(dim, num_labels)

    def forward(self, input_ids, attention_mask, labels=None):
        h = self.embeddings(input_ids) * attention_mask.unsqueeze(-1)
        return SimpleNamespace(logits=self.classifier(h.sum(1) / attention_mask.sum(1, keepdim=True)))


accelerator = Accelerator()
metric = GlueMetric()
model = SequenceClassifier().to(accelerator.device)          # accelerator.prepare(model, ...)
eval_dataloader = [
    BatchEncoding(input_ids=torch.randint(0, 100, (4, 6)), attention_mask=torch.ones(4, 6, dtype=torch.long),
                  labels=torch.randint(0, 2, (4,))).to(accelerator.device)
    for _ in range(2)
]
'''
CELL = '''
model.eval()
for step, batch in enumerate(eval_dataloader):
    # We could avoid this line since we set the accelerator with `device_placement=True`.
    batch.to(accelerator.device)
    with torch.no_grad():
        outputs = model(**batch)
    predictions = outputs.logits.argmax(dim=-1)
    predictions, references = accelerator.gather_for_metrics((predictions, batch["labels"]))
    metric.add_batch(
        predictions=predictions,
        references=references,
    )

eval_metric = metric.compute()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
