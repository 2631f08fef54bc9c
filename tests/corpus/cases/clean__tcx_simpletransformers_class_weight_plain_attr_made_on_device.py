"""Look-alike: simpletransformers ClassificationModel with class weights on one GPU: the weight tensor is a plain attribute of the model (not a buffer), but it is created directly on the model's device.

Source: https://github.com/ThilinaRajapakse/simpletransformers/blob/master/simpletransformers/classification/classification_model.py
With `weight=[...]`, `ClassificationModel.__init__` loads the model with
`model_class.from_pretrained(model_name, config=self.config, weight=torch.Tensor(self.weight).to(self.device))`;
the custom `BertForSequenceClassification` keeps it as `self.weight` and uses `CrossEntropyLoss(weight=self.weight)`
in `forward`. `Module.to()` would not move that plain attribute, but it was made on `self.device`, and `train`
moves the model and each batch to the same device, so a single-GPU step sees one device. Stand-ins: a tiny
BERT-like classifier, ClassificationModel reduced to the device choice and one forward step of `train`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
from torch.nn import CrossEntropyLoss

class BertForSequenceClassification(nn.Module):
    """Stand-in for simpletransformers.custom_models.models.BertForSequenceClassification (weight kept as attribute)."""
    def __init__(self, num_labels=2, weight=None, vocab_size=30522, hidden=32):
        super().__init__()
        self.num_labels = num_labels
        self.embeddings = nn.Embedding(vocab_size, hidden)
        self.pooler = nn.Linear(hidden, hidden)
        self.classifier = nn.Linear(hidden, num_labels)
        self.weight = weight

    @classmethod
    def from_pretrained(cls, model_name, num_labels=2, weight=None):
        return cls(num_labels=num_labels, weight=weight)

    def forward(self, input_ids, attention_mask=None, labels=None):
        pooled = torch.tanh(self.pooler(self.embeddings(input_ids).mean(dim=1)))
        logits = self.classifier(pooled)
        outputs = (logits,)
        if labels is not None:
            loss_fct = CrossEntropyLoss(weight=self.weight)
            loss = loss_fct(logits.view(-1, self.num_labels), labels.view(-1))
            outputs = (loss,) + outputs
        return outputs

class ClassificationModel:
    """Stand-in for simpletransformers.classification.ClassificationModel, reduced."""
    def __init__(self, model_type, model_name, num_labels=2, weight=None, use_cuda=True, cuda_device=0):
        self.weight = weight
        self.device = torch.device(f"cuda:{cuda_device}") if use_cuda else "cpu"
        if self.weight:
            self.model = BertForSequenceClassification.from_pretrained(
                model_name, num_labels=num_labels, weight=torch.Tensor(self.weight).to(self.device))
        else:
            self.model = BertForSequenceClassification.from_pretrained(model_name, num_labels=num_labels)

    def _get_inputs_dict(self, batch):
        return {"input_ids": batch[0], "attention_mask": batch[1], "labels": batch[3]}

    def train_step(self, batch):
        self.model.to(self.device)
        batch = tuple(t.to(self.device) for t in batch)
        inputs = self._get_inputs_dict(batch)
        outputs = self.model(**inputs)
        return outputs[0]

model = ClassificationModel("bert", "bert-base-cased", num_labels=2, weight=[0.3, 1.7], use_cuda=True)
input_ids = torch.randint(0, 30522, (4, 12))
batch = (input_ids, torch.ones_like(input_ids), torch.zeros_like(input_ids), torch.tensor([0, 1, 1, 0]))
'''
CELL = '''
loss = model.train_step(batch)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
