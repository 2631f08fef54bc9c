"""A transformers sequence classifier with `problem_type="multi_label_classification"` fed integer multi-hot labels.

Source: https://github.com/Lightning-AI/torchmetrics/issues/1367
The reporter trains `AutoModelForSequenceClassification` configured with
`problem_type="multi_label_classification"` and keeps the targets as ints (torchmetrics' multilabel
Accuracy/F1 wanted integer targets); the model's loss fails in `binary_cross_entropy_with_logits`:
"result type Float can't be cast to the desired output type Long". BCEWithLogitsLoss needs float
targets: the labels must be cast for the loss (and may stay int for the metric). Stand-in: the
transformers classification head's problem_type dispatch over a tiny embedding encoder.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn
from torch.nn import BCEWithLogitsLoss, CrossEntropyLoss, MSELoss

class RobertaForSequenceClassification(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.num_labels = config.num_labels
        self.embeddings = nn.Embedding(config.vocab_size, config.hidden_size)
        self.dense = nn.Linear(config.hidden_size, config.hidden_size)
        self.out_proj = nn.Linear(config.hidden_size, config.num_labels)

    def forward(self, input_ids, attention_mask=None, labels=None):
        hidden = self.embeddings(input_ids)
        logits = self.out_proj(torch.tanh(self.dense(hidden[:, 0, :])))
        loss = None
        if labels is not None:
            if self.config.problem_type is None:
                if self.num_labels == 1:
                    self.config.problem_type = "regression"
                elif labels.dtype == torch.long or labels.dtype == torch.int:
                    self.config.problem_type = "single_label_classification"
                else:
                    self.config.problem_type = "multi_label_classification"
            if self.config.problem_type == "regression":
                loss = MSELoss()(logits.squeeze(), labels.squeeze())
            elif self.config.problem_type == "single_label_classification":
                loss = CrossEntropyLoss()(logits.view(-1, self.num_labels), labels.view(-1))
            elif self.config.problem_type == "multi_label_classification":
                loss_fct = BCEWithLogitsLoss()
                loss = loss_fct(logits, labels)
        return SimpleNamespace(loss=loss, logits=logits)

hf_config = SimpleNamespace(vocab_size=500, hidden_size=32, num_labels=6,
                            problem_type="multi_label_classification")
model = RobertaForSequenceClassification(hf_config)
batch = {
    "input_ids": torch.randint(0, 500, (4, 16)),
    "attention_mask": torch.ones(4, 16, dtype=torch.long),
    "labels": torch.randint(0, 2, (4, 6)),          # int multi-hot targets, as torchmetrics wants
}
'''
CELL = '''
outputs = model(**batch)
outputs.loss.backward()
'''
EXPECT_ERROR = "result type Float can't be cast to the desired output type Long"
CULPRITS = ["batch['labels']"]
FIX = "namespace"
REFERENCE_FIX = '''
batch["labels"] = batch["labels"].float()
'''
REFERENCE_EDIT = None
CLEAN = False
