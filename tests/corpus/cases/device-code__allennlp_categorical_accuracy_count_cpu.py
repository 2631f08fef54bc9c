"""AllenNLP's CategoricalAccuracy builds its `count` with torch.ones(...) on the CPU; a masked GPU batch crashes it.

Source: https://github.com/allenai/allennlp/issues/166
Training the tutorial's SimpleTagger on a GPU machine crashed in the metric: `count =
torch.ones(gold_labels.size())` has no device, and `count *= mask` mixed it with the cuda mask
(it worked in BiDAF only because no mask was passed). The maintainers' fix creates `count` on the
labels' device. Stand-in: the metric's `__call__` (sanity checks dropped) and a small tagger.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class CategoricalAccuracy:
    def __init__(self, top_k=1):
        self._top_k = top_k
        self.correct_count = 0.0
        self.total_count = 0.0

    def __call__(self, predictions, gold_labels, mask=None):
        top_k = predictions.topk(self._top_k, -1)[1]
        correct = top_k.eq(gold_labels.long().unsqueeze(-1)).float()
        count = torch.ones(gold_labels.size())
        if mask is not None:
            correct *= mask.unsqueeze(-1)
            count *= mask
        self.correct_count += correct.sum()
        self.total_count += count.sum()

class SimpleTagger(nn.Module):
    def __init__(self, embedding_dim=16, hidden_dim=32, num_tags=5):
        super().__init__()
        self.encoder = nn.Linear(embedding_dim, hidden_dim)
        self.tag_projection_layer = nn.Linear(hidden_dim, num_tags)

    def forward(self, embedded_text):
        return self.tag_projection_layer(torch.relu(self.encoder(embedded_text)))

model = SimpleTagger().to("cuda:0")
accuracy = CategoricalAccuracy()
embedded_text = torch.randn(2, 7, 16, device="cuda:0")
tags = torch.randint(0, 5, (2, 7), device="cuda:0")
mask = torch.ones(2, 7, device="cuda:0")
'''
CELL = '''
logits = model(embedded_text)
accuracy(logits, tags, mask)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["accuracy"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "count = torch.ones(gold_labels.size())",
    "count = torch.ones(gold_labels.size(), device=gold_labels.device)",
)
CLEAN = False
