"""run_glue_no_trainer on STS-B from a RoBERTa already fine-tuned for binary classification: the saved problem_type sends float scores to CrossEntropyLoss.

Source: https://github.com/huggingface/transformers/issues/19181
The reporter fine-tunes STS-B (float similarity labels, `num_labels=1`) starting from their own RoBERTa checkpoint
that was first fine-tuned on a binary sentence task, and the loss fails with "Expected object of scalar type Long
but got scalar type Float for argument #2 'target' in call to _thnn_nll_loss_forward". The first stage saved
`problem_type="single_label_classification"` in config.json; `from_pretrained(..., num_labels=1)` keeps it, so the
head skips its regression branch and feeds the float labels to CrossEntropyLoss. Resetting
`model.config.problem_type` (to "regression" or None) is the fix. Stand-ins: the RoBERTa classification head's
problem_type dispatch over a tiny encoder; the batch as run_glue_no_trainer's collator builds it.
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
        self.config, self.num_labels = config, config.num_labels
        self.embeddings = nn.Embedding(config.vocab_size, config.hidden_size)
        self.dense = nn.Linear(config.hidden_size, config.hidden_size)
        self.out_proj = nn.Linear(config.hidden_size, config.num_labels)

    def forward(self, input_ids, attention_mask=None, labels=None):
        logits = self.out_proj(torch.tanh(self.dense(self.embeddings(input_ids)[:, 0, :])))
        loss = None
        if labels is not None:
            if self.config.problem_type is None:
                if self.num_labels == 1:
                    self.config.problem_type = "regression"
                elif self.num_labels > 1 and (labels.dtype == torch.long or labels.dtype == torch.int):
                    self.config.problem_type = "single_label_classification"
                else:
                    self.config.problem_type = "multi_label_classification"
            if self.config.problem_type == "regression":
                loss = MSELoss()(logits.squeeze(), labels.squeeze())
            elif self.config.problem_type == "single_label_classification":
                loss = CrossEntropyLoss()(logits.view(-1, self.num_labels), labels.view(-1))
            else:
                loss = BCEWithLogitsLoss()(logits, labels)
        return SimpleNamespace(loss=loss, logits=logits)

def from_pretrained(path, num_labels):
    saved = {"vocab_size": 50265, "hidden_size": 32, "problem_type": "single_label_classification"}  # config.json
    return RobertaForSequenceClassification(SimpleNamespace(**saved, num_labels=num_labels))

is_regression = True            # stsb
num_labels = 1
model = from_pretrained("./roberta-finetuned-binary", num_labels=num_labels)
batch = {"input_ids": torch.randint(0, 50265, (8, 24)),
         "attention_mask": torch.ones(8, 24, dtype=torch.long),
         "labels": torch.rand(8) * 5.0}
'''
CELL = '''
outputs = model(**batch)
loss = outputs.loss
loss.backward()
'''
EXPECT_ERROR = ("expected target dtype to be Long", "expected scalar type Long but found Float")
CULPRITS = ["batch['labels']"]
FIX = "namespace"
REFERENCE_FIX = '''
model.config.problem_type = "regression"
'''
REFERENCE_EDIT = None
CLEAN = False
