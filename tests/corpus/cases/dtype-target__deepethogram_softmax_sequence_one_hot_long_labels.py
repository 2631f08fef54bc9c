"""DeepEthogram sequence model with final_activation='softmax': the one-hot int64 label maps go to CrossEntropyLoss.

Source: https://github.com/jbohnslav/deepethogram/issues/88
After switching the behaviours to mutually exclusive (`final_activation: softmax`, see issue #61),
training the sequence model failed with "RuntimeError: Expected floating point type for target with
class probabilities, got Long". DeepEthogram's labels are per-frame one-hot/multi-hot int64 arrays
of shape (N, K, T), the same shape as the logits, so `cross_entropy` reads them as class
probabilities, which must be floating point. Per-frame class indices (`argmax` over K) are what a
softmax loss takes. Stand-in: a TGM-like 1-D conv head and the softmax branch of the loss.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import torch
from torch import nn

num_classes, T = 5, 30

class SequenceModel(nn.Module):
    """Stand-in for deepethogram's TGMJ sequence model: features (N, D, T) -> logits (N, K, T)."""
    def __init__(self, d=32, k=num_classes):
        super().__init__()
        self.h = nn.Conv1d(d, 16, 1)
        self.classify = nn.Conv1d(16, k, 3, padding=1)

    def forward(self, x):
        return self.classify(torch.relu(self.h(x)))

final_activation = "softmax"
softmax_weight = torch.tensor([0.1, 0.3, 0.2, 0.25, 0.15])
if final_activation == "softmax":
    data_criterion = nn.CrossEntropyLoss(weight=softmax_weight)
else:
    data_criterion = nn.BCEWithLogitsLoss()

model = SequenceModel()
# one batch from the sequence datamodule: features and one-hot int64 labels, both (N, ., T)
frames = torch.randint(0, num_classes, (4, T))
batch = {"features": torch.randn(4, 32, T),
         "labels": torch.nn.functional.one_hot(frames, num_classes).permute(0, 2, 1)}
'''
CELL = '''
outputs = model(batch["features"])
loss = data_criterion(outputs, batch["labels"])
'''
EXPECT_ERROR = "Expected floating point type for target with class probabilities, got Long"
CULPRITS = ["batch['labels']"]
FIX = "namespace"
REFERENCE_FIX = '''
batch["labels"] = batch["labels"].argmax(dim=1)
'''
REFERENCE_EDIT = None
CLEAN = False
