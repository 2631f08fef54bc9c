"""lightning-transformers text classification: metrics kept in a plain dict, but each one is also assigned to an attribute, so they move with the model.

Source: https://github.com/Lightning-Universe/lightning-transformers/blob/master/lightning_transformers/task/nlp/text_classification/model.py
`TextClassificationTransformer.configure_metrics` builds `self.prec = Precision(...)`,
`self.recall = Recall(...)`, `self.acc = Accuracy()` and then `self.metrics = {"precision":
self.prec, ...}`: the dict looks like the classic "metrics in a plain dict are never moved" bug,
but the attribute assignments register every metric as a submodule, so the Trainer's `.to()`
moves their states with the model and `compute_metrics` iterating the dict runs on the GPU.
Look-alike: a plain dict of stateful metrics used on cuda batches. Stand-in: `HFTransformer`/
`TaskTransformer` as a plain `nn.Module` around a tiny sequence classifier (the Trainer's `.to()`
and `configure_metrics` call done by hand), PyTorch Lightning 1.1-style `Precision`/`Recall`
(states as buffers) and a reduced `Accuracy`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from typing import Any, Dict
import torch
from torch import nn

class Metric(nn.Module):                                # stand-in for pytorch_lightning.metrics.Metric (1.1)
    def __init__(self, compute_on_step=True, dist_sync_on_step=False, process_group=None):
        super().__init__()
        self.compute_on_step = compute_on_step

    def add_state(self, name, default, dist_reduce_fx=None, persistent=True):
        self.register_buffer(name, default)

    def forward(self, *args, **kwargs):
        with torch.no_grad():
            self.update(*args, **kwargs)
        if self.compute_on_step:
            return self.compute()

def to_onehot(label_tensor, num_classes=None):
    tensor_onehot = torch.zeros(label_tensor.shape[0], num_classes, *label_tensor.shape[1:],
                                dtype=label_tensor.dtype, device=label_tensor.device)
    index = label_tensor.long().unsqueeze(1).expand_as(tensor_onehot)
    return tensor_onehot.scatter_(1, index, 1.0)

def _input_format_classification_one_hot(num_classes, preds, target, threshold=0.5, multilabel=False):
    if preds.ndim == target.ndim + 1:
        preds = torch.argmax(preds, dim=1)
    if preds.ndim == target.ndim and preds.dtype in (torch.long, torch.int) and num_classes > 1 and not multilabel:
        preds = to_onehot(preds, num_classes=num_classes)
        target = to_onehot(target, num_classes=num_classes)
    elif preds.ndim == target.ndim and preds.is_floating_point():
        preds = (preds >= threshold).long()
    if preds.ndim > 1:
        preds = preds.transpose(1, 0)
        target = target.transpose(1, 0)
    return preds.reshape(num_classes, -1), target.reshape(num_classes, -1)

METRIC_EPS = 1e-6

class Precision(Metric):
    def __init__(self, num_classes=1, threshold=0.5, average='micro', multilabel=False, **kwargs):
        super().__init__(**kwargs)
        self.num_classes, self.threshold, self.average, self.multilabel = num_classes, threshold, average, multilabel
        self.add_state("true_positives", default=torch.zeros(num_classes), dist_reduce_fx="sum")
        self.add_state("predicted_positives", default=torch.zeros(num_classes), dist_reduce_fx="sum")

    def update(self, preds, target):
        preds, target = _input_format_classification_one_hot(
            self.num_classes, preds, target, self.threshold, self.multilabel
        )
        self.true_positives += torch.sum(preds * target, dim=1)
        self.predicted_positives += torch.sum(preds, dim=1)

    def compute(self):
        return self.true_positives.sum().float() / (self.predicted_positives.sum() + METRIC_EPS)

class Recall(Metric):
    def __init__(self, num_classes=1, threshold=0.5, average='micro', multilabel=False, **kwargs):
        super().__init__(**kwargs)
        self.num_classes, self.threshold, self.average, self.multilabel = num_classes, threshold, average, multilabel
        self.add_state("true_positives", default=torch.zeros(num_classes), dist_reduce_fx="sum")
        self.add_state("actual_positives", default=torch.zeros(num_classes), dist_reduce_fx="sum")

    def update(self, preds, target):
        preds, target = _input_format_classification_one_hot(
            self.num_classes, preds, target, self.threshold, self.multilabel
        )
        self.true_positives += torch.sum(preds * target, dim=1)
        self.actual_positives += torch.sum(target, dim=1)

    def compute(self):
        return self.true_positives.sum().float() / (self.actual_positives.sum() + METRIC_EPS)

class Accuracy(Metric):
    def __init__(self, threshold=0.5, **kwargs):
        super().__init__(**kwargs)
        self.threshold = threshold
        self.add_state("correct", default=torch.zeros(1), dist_reduce_fx="sum")
        self.add_state("total", default=torch.zeros(1), dist_reduce_fx="sum")

    def update(self, preds, target):
        self.correct += torch.sum(preds == target).reshape(1)
        self.total += torch.full((1,), target.numel(), dtype=torch.float, device=target.device)

    def compute(self):
        return self.correct / self.total

class TinySequenceClassifier(nn.Module):               # stand-in for an AutoModelForSequenceClassification
    def __init__(self, vocab_size=100, hidden=32, num_labels=3):
        super().__init__()
        self.num_labels = num_labels
        self.embed = nn.Embedding(vocab_size, hidden)
        self.classifier = nn.Linear(hidden, num_labels)

    def forward(self, input_ids, attention_mask=None, labels=None):
        logits = self.classifier(self.embed(input_ids).mean(dim=1))
        loss = nn.functional.cross_entropy(logits, labels)
        return loss, logits

class HFTransformer(nn.Module):                        # stand-in for lightning_transformers.core.huggingface.HFTransformer
    def __init__(self, num_labels=3):
        super().__init__()
        self.model = TinySequenceClassifier(num_labels=num_labels)

    def log(self, *args, **kwargs):
        pass

    def log_dict(self, *args, **kwargs):
        pass

class TextClassificationTransformer(HFTransformer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.metrics = {}

    def common_step(self, prefix: str, batch: Any) -> torch.Tensor:
        outputs = self.model(**batch)
        loss, logits = outputs[:2]
        preds = torch.argmax(logits, dim=1)
        if batch["labels"] is not None:
            metric_dict = self.compute_metrics(preds, batch["labels"], mode=prefix)
            self.log_dict(metric_dict, prog_bar=True, on_step=False, on_epoch=True)
            self.log(f"{prefix}_loss", loss, prog_bar=True, sync_dist=True)
        return loss

    def validation_step(self, batch: Any, batch_idx: int, dataloader_idx: int = 0) -> torch.Tensor:
        return self.common_step("val", batch)

    def configure_metrics(self, _) -> None:
        self.prec = Precision(num_classes=self.num_classes)
        self.recall = Recall(num_classes=self.num_classes)
        self.acc = Accuracy()
        self.metrics = {"precision": self.prec, "recall": self.recall, "accuracy": self.acc}

    @property
    def num_classes(self) -> int:
        return self.model.num_labels

    def compute_metrics(self, preds, labels, mode="val") -> Dict[str, torch.Tensor]:
        return {f"{mode}_{k}": metric(preds, labels) for k, metric in self.metrics.items()}

model = TextClassificationTransformer(num_labels=3)
model.configure_metrics(None)          # the Trainer calls it in setup
model.to("cuda:0")                     # the Trainer moves the LightningModule to the GPU
batch = {
    "input_ids": torch.randint(0, 100, (8, 16), device="cuda:0"),
    "attention_mask": torch.ones(8, 16, dtype=torch.long, device="cuda:0"),
    "labels": torch.randint(0, 3, (8,), device="cuda:0"),
}
'''
CELL = '''
val_loss = model.validation_step(batch, 0)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
