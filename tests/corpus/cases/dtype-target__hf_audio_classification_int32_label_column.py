"""HF audio_classification notebook: the `label` column arrives as int32 and cross_entropy refuses it.

Source: https://github.com/huggingface/notebooks/issues/486
Running audio_classification.ipynb (Wav2Vec2 on keyword spotting), `trainer.train()` stopped in
`torch._C._nn.cross_entropy_loss` with "RuntimeError: expected scalar type Long but found Int"
(Windows): the collated `labels` tensor was int32, built from NumPy's default integer there, while
the classification head's CrossEntropyLoss needs int64 class indices. Stand-in: the classifier head
over pooled wav2vec2 features and the collated batch dict; current PyTorch words the error as
"expected target dtype to be Long or Byte, but got Int".
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
from torch import nn

class Wav2Vec2ForSequenceClassification(nn.Module):
    def __init__(self, num_labels=12, hidden=64):
        super().__init__()
        self.feature_extractor = nn.Conv1d(1, hidden, 400, stride=320)
        self.projector = nn.Linear(hidden, 32)
        self.classifier = nn.Linear(32, num_labels)
        self.num_labels = num_labels

    def forward(self, input_values, labels=None):
        hidden = self.feature_extractor(input_values.unsqueeze(1)).transpose(1, 2)
        pooled = self.projector(hidden).mean(dim=1)
        logits = self.classifier(pooled)
        loss = None
        if labels is not None:
            loss_fct = nn.CrossEntropyLoss()
            loss = loss_fct(logits.view(-1, self.num_labels), labels.view(-1))
        return loss, logits

def collate(features):
    return {
        "input_values": torch.tensor(np.stack([f["input_values"] for f in features])),
        "labels": torch.tensor(np.array([f["label"] for f in features], dtype=np.int32)),   # np.int_ on Windows
    }

model = Wav2Vec2ForSequenceClassification()
encoded_dataset = [{"input_values": np.random.randn(16000).astype(np.float32), "label": i % 12} for i in range(8)]
batch = collate(encoded_dataset)
'''
CELL = '''
loss, logits = model(**batch)
'''
EXPECT_ERROR = ("expected scalar type Long but found Int", "expected target dtype to be Long", "Long")
CULPRITS = ["batch['labels']"]
FIX = "namespace"
REFERENCE_FIX = '''
batch["labels"] = batch["labels"].long()
'''
REFERENCE_EDIT = None
CLEAN = False
