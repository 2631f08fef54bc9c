"""CORE-BEHRT trainer: `to_device` builds a new dict of moved tensors that the caller never keeps.

Source: https://github.com/mikkelfo/CORE-BEHRT/issues/1
"Batch on wrong device": `EHRTrainer.to_device` was `return {key: value.to(self.device) for key,
value in batch.items()}`, but the trainer calls `self.to_device(batch)` for its side effect, so the
batch dict handed to the model still holds CPU tensors. The fix in the issue: move the batch in
place, `for key, value in batch.items(): batch[key] = value.to(self.device)`.
Stand-in: the trainer's `to_device`/`forward_pass` pair and a small BEHRT-shaped model (concept,
segment, age and position embeddings, pooled linear head).
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
import torch.nn as nn

class BehrtStandIn(nn.Module):
    def __init__(self, vocab=50, hidden=16):
        super().__init__()
        self.concept = nn.Embedding(vocab, hidden)
        self.segment = nn.Embedding(2, hidden)
        self.age = nn.Embedding(120, hidden)
        self.head = nn.Linear(hidden, 1)

    def forward(self, concept, segment, age, attention_mask, target=None):
        h = self.concept(concept) + self.segment(segment) + self.age(age)
        h = (h * attention_mask.unsqueeze(-1)).sum(1) / attention_mask.sum(1, keepdim=True)
        logits = self.head(h).squeeze(-1)
        if target is None:
            return logits
        return nn.functional.binary_cross_entropy_with_logits(logits, target)

class EHRTrainer:
    def __init__(self, model, device):
        self.model = model.to(device)
        self.device = device

    def to_device(self, batch: dict) -> dict:
        return {key: value.to(self.device) for key, value in batch.items()}

    def forward_pass(self, batch: dict):
        self.to_device(batch)
        return self.model(**batch)

device = torch.device("cuda:0")
trainer = EHRTrainer(BehrtStandIn(), device)
batch = {
    "concept": torch.randint(0, 50, (4, 12)),
    "segment": torch.randint(0, 2, (4, 12)),
    "age": torch.randint(0, 120, (4, 12)),
    "attention_mask": torch.ones(4, 12),
    "target": torch.rand(4).round(),
}
'''
CELL = '''
loss = trainer.forward_pass(batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["batch"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        return {key: value.to(self.device) for key, value in batch.items()}",
    "        for key, value in batch.items():\n            batch[key] = value.to(self.device)\n        return batch",
)
CLEAN = False
