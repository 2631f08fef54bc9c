"""Look-alike: RobertaForSequenceClassification split over two GPUs with the PR #22663 change; labels on cuda:0 are moved to the logits' GPU inside forward.

Source: https://github.com/huggingface/transformers/pull/22663
For model parallelism (`device_map="auto"`), the PR adds `labels = labels.to(logits.device)` before the loss in
RoBERTa (and BLOOM, GPT Neo, GPT NeoX, ViT): the batch is placed on `model.device` (the embeddings' GPU, cuda:0)
while the classification head sits on cuda:1. The batch and the head are on different GPUs by design and the
forward runs. Stand-in: embeddings / encoder layers / classifier placed as an hf_device_map would place them.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn
from torch.nn import CrossEntropyLoss

class RobertaForSequenceClassification(nn.Module):
    def __init__(self, vocab_size=50265, hidden=32, num_labels=3, num_layers=4):
        super().__init__()
        self.num_labels = num_labels
        self.embeddings = nn.Embedding(vocab_size, hidden)
        self.layer = nn.ModuleList([nn.Linear(hidden, hidden) for _ in range(num_layers)])
        self.classifier = nn.Sequential(nn.Linear(hidden, hidden), nn.Tanh(), nn.Linear(hidden, num_labels))

    def dispatch(self, device_map):
        self.hf_device_map = device_map
        for name, dev in device_map.items():
            self.get_submodule(name).to(dev)
        return self

    @property
    def device(self):
        return self.embeddings.weight.device

    def forward(self, input_ids, attention_mask=None, labels=None):
        hidden = self.embeddings(input_ids)
        for block in self.layer:
            hidden = torch.tanh(block(hidden.to(block.weight.device)))
        logits = self.classifier(hidden[:, 0, :].to(self.classifier[0].weight.device))
        loss = None
        if labels is not None:
            labels = labels.to(logits.device)
            loss_fct = CrossEntropyLoss()
            loss = loss_fct(logits.view(-1, self.num_labels), labels.view(-1))
        return SimpleNamespace(loss=loss, logits=logits)

device_map = {"embeddings": "cuda:0", "layer.0": "cuda:0", "layer.1": "cuda:0", "layer.2": "cuda:1",
              "layer.3": "cuda:1", "classifier": "cuda:1"}
model = RobertaForSequenceClassification().dispatch(device_map)
batch = {"input_ids": torch.randint(3, 50265, (4, 24)), "attention_mask": torch.ones(4, 24, dtype=torch.long),
         "labels": torch.tensor([0, 2, 1, 0])}
batch = {k: v.to(model.device) for k, v in batch.items()}
'''
CELL = '''
outputs = model(**batch)
loss = outputs.loss
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
