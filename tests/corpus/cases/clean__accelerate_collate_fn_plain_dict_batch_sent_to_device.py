"""Look-alike: accelerate's prepared DataLoader with a collate_fn that returns a plain dict: the batch is moved for the user.

Source: https://github.com/huggingface/accelerate/issues/178
The fix sgugger gave in "Mixed type batches in data loader": wrap the transformers data collator so
the collate_fn returns `{k: v for k, v in data_collator(batch).items()}`, a plain `dict`, which
accelerate's `send_to_device` recurses into. The batch is built on the CPU by the collator and only
moved by the prepared loader; nothing in the user's code calls `.to(device)` on it, and the cell runs.
Stand-ins as in the bug case (BatchEncoding, the old send_to_device, DataLoaderShard).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from collections import UserDict
import torch
from torch import nn

class BatchEncoding(UserDict):
    """transformers.BatchEncoding: a UserDict of tensors."""

def send_to_device(tensor, device):
    """accelerate.utils.send_to_device as of v0.4 (before the Mapping fix)."""
    if isinstance(tensor, (list, tuple)):
        return type(tensor)(send_to_device(t, device) for t in tensor)
    elif isinstance(tensor, dict):
        return type(tensor)({k: send_to_device(v, device) for k, v in tensor.items()})
    elif not hasattr(tensor, "to"):
        return tensor
    return tensor.to(device)

class DataLoaderShard:
    """What accelerator.prepare(dataloader) returns: batches are sent to the device on the fly."""
    def __init__(self, dataset, batch_size, collate_fn, device):
        self.dataset, self.batch_size, self.collate_fn, self.device = dataset, batch_size, collate_fn, device

    def __iter__(self):
        for i in range(0, len(self.dataset), self.batch_size):
            batch = self.collate_fn(self.dataset[i:i + self.batch_size])
            yield send_to_device(batch, self.device)

def data_collator(features):
    """DataCollatorWithPadding stand-in: pads input_ids, builds the attention mask and labels."""
    max_len = max(len(f["input_ids"]) for f in features)
    ids = [f["input_ids"] + [0] * (max_len - len(f["input_ids"])) for f in features]
    mask = [[1] * len(f["input_ids"]) + [0] * (max_len - len(f["input_ids"])) for f in features]
    return BatchEncoding(input_ids=torch.tensor(ids), attention_mask=torch.tensor(mask),
                         labels=torch.tensor([f["label"] for f in features]))

def collate_fn(examples):
    return {k: v for k, v in data_collator(examples).items()}

class SequenceClassifier(nn.Module):
    def __init__(self, vocab=100, dim=16, num_labels=2):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, dim)
        self.classifier = nn.Linear(dim, num_labels)

    def forward(self, input_ids, attention_mask, labels=None):
        h = self.embeddings(input_ids) * attention_mask.unsqueeze(-1)
        logits = self.classifier(h.sum(1) / attention_mask.sum(1, keepdim=True))
        loss = nn.functional.cross_entropy(logits, labels) if labels is not None else None
        return loss, logits

device = torch.device("cuda:0")
model = SequenceClassifier().to(device)
train_examples = [{"input_ids": [5, 8, 13, 2], "label": 1}, {"input_ids": [7, 3], "label": 0},
                  {"input_ids": [9, 9, 4], "label": 1}, {"input_ids": [11, 6, 2, 2, 1], "label": 0}]
train_dataloader = DataLoaderShard(train_examples, batch_size=4, collate_fn=collate_fn, device=device)
batch = next(iter(train_dataloader))
'''
CELL = '''
loss, logits = model(**batch)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
