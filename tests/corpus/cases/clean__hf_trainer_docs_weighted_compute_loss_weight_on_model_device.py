"""Look-alike: the transformers Trainer docs' weighted `compute_loss` builds its class weights inside the loss, on `model.device`.

Source: https://github.com/huggingface/transformers/blob/main/docs/source/en/main_classes/trainer.md
"Here is an example of how to customize Trainer to use a weighted loss": `CustomTrainer.compute_loss`
pops the labels, runs the model and creates `nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 3.0],
device=model.device))` on every call. The weight tensor is made fresh in the loss code, but on the
model's device, and the Trainer has already moved the batch there. Stand-in: the docs' CustomTrainer
over a minimal Trainer (`_prepare_inputs` moves the batch to the model's device, as transformers
does) and a tiny 3-label sequence classifier.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn

class TinyForSequenceClassification(nn.Module):
    def __init__(self, vocab_size=200, hidden=16, num_labels=3):
        super().__init__()
        self.config = SimpleNamespace(num_labels=num_labels)
        self.embeddings = nn.Embedding(vocab_size, hidden)
        self.classifier = nn.Linear(hidden, num_labels)

    @property
    def device(self):
        return next(self.parameters()).device

    def forward(self, input_ids, attention_mask=None):
        h = self.embeddings(input_ids).mean(dim=1)
        return {"logits": self.classifier(h)}

class Trainer:
    def __init__(self, model, device):
        self.model = model.to(device)

    def _prepare_inputs(self, inputs):
        return {k: v.to(self.model.device) for k, v in inputs.items()}

    def training_step(self, model, inputs):
        inputs = self._prepare_inputs(inputs)
        return self.compute_loss(model, inputs)

class CustomTrainer(Trainer):
    def compute_loss(self, model, inputs, return_outputs=False):
        labels = inputs.pop("labels")
        # forward pass
        outputs = model(**inputs)
        logits = outputs.get("logits")
        # compute custom loss (suppose one has 3 labels with different weights)
        loss_fct = nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 3.0], device=model.device))
        loss = loss_fct(logits.view(-1, self.model.config.num_labels), labels.view(-1))
        return (loss, outputs) if return_outputs else loss

trainer = CustomTrainer(TinyForSequenceClassification(), torch.device("cuda:0"))
batch = {"input_ids": torch.randint(0, 200, (8, 12)), "attention_mask": torch.ones(8, 12, dtype=torch.long),
         "labels": torch.randint(0, 3, (8,))}
'''
CELL = '''
loss = trainer.training_step(trainer.model, dict(batch))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
