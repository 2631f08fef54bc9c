"""datasets: converting multi-label targets to float inside `.map` is undone by the dataset's int features; BERT's BCE loss gets int64 labels.

Source: https://github.com/huggingface/datasets/issues/7472
For a multi-label task the reporter converts the int labels to floats in the preprocessing function passed to
`dataset.map`, since `BertForSequenceClassification` with `problem_type="multi_label_classification"` uses
BCEWithLogitsLoss. After `.map` the column still has the original `Sequence(Value("int64"))` features, so the
values are cast back to int and the forward fails in `binary_cross_entropy_with_logits`: "result type Float can't
be cast to the desired output type Long". Stand-ins: a Dataset whose map re-encodes rows with the stored
features, a torch-format collator, and the BERT classifier's problem_type dispatch.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn
from torch.nn import BCEWithLogitsLoss, CrossEntropyLoss

class Dataset:
    def __init__(self, rows, features):
        self.rows, self.features = rows, features
    def map(self, function):
        rows = [{**r, **function(dict(r))} for r in self.rows]
        return Dataset([{k: self.features[k](v) for k, v in r.items()} for r in rows], self.features)
    def __getitem__(self, i):
        return self.rows[i]
    def __len__(self):
        return len(self.rows)

int_sequence = lambda v: [int(x) for x in v]
features = {"input_ids": int_sequence, "attention_mask": int_sequence, "labels": int_sequence}
raw = Dataset([{"input_ids": [101, 7, 8, 9, 102], "attention_mask": [1] * 5, "labels": [1, 0, 1, 0]},
               {"input_ids": [101, 4, 5, 6, 102], "attention_mask": [1] * 5, "labels": [0, 0, 1, 1]}], features)

def preprocess(example):
    example["labels"] = [float(x) for x in example["labels"]]
    return example

train_dataset = raw.map(preprocess)

def default_data_collator(examples):
    return {k: torch.tensor([e[k] for e in examples]) for k in examples[0]}

class BertForSequenceClassification(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config, self.num_labels = config, config.num_labels
        self.embeddings = nn.Embedding(config.vocab_size, config.hidden_size)
        self.classifier = nn.Linear(config.hidden_size, config.num_labels)

    def forward(self, input_ids, attention_mask=None, labels=None):
        pooled = torch.tanh(self.embeddings(input_ids)[:, 0])
        logits = self.classifier(pooled)
        loss = None
        if labels is not None:
            if self.config.problem_type == "multi_label_classification":
                loss = BCEWithLogitsLoss()(logits, labels)
            else:
                loss = CrossEntropyLoss()(logits.view(-1, self.num_labels), labels.view(-1))
        return SimpleNamespace(loss=loss, logits=logits)

config = SimpleNamespace(vocab_size=30522, hidden_size=32, num_labels=4, problem_type="multi_label_classification")
model = BertForSequenceClassification(config)
batch = default_data_collator([train_dataset[i] for i in range(len(train_dataset))])
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
