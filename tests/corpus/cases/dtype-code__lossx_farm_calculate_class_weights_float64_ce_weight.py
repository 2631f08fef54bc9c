"""FARM text classification with class weights: the weights come out as float64 and CrossEntropyLoss refuses them.

Source: https://github.com/deepset-ai/FARM/issues/352
Training a `TextClassificationHead(class_weights=data_silo.calculate_class_weights(task_name=
"text_classification"), ...)` on FARM's git master failed in `logits_to_loss` with "Expected object of
scalar type Float but got scalar type Double for argument #3 'weight' in call to
_thnn_nll_loss_forward" (0.4.3 from pip worked). `DataSilo.calculate_class_weights` returned
`list(compute_class_weight("balanced", ...))`, numpy float64 values, and the head wraps them in
`nn.Parameter(torch.tensor(class_weights))`, a float64 tensor passed as the CrossEntropyLoss weight.
The maintainers' fix (#392, "Cast weights to correct dtype") makes `calculate_class_weights` return
`class_weights.astype(np.float32)`.
Stand-ins: sklearn's `compute_class_weight("balanced", ...)`, FARM's `DataSilo` (labels of the
train set only), `TextClassificationHead` and a two-layer "language model" + `AdaptiveModel`.
CPU: dtype bug only.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import numpy as np
import torch
from torch import nn
from torch.nn import CrossEntropyLoss

def compute_class_weight(class_weight, classes, y):          # sklearn.utils.class_weight (stand-in)
    y = np.asarray(y)
    counts = np.array([(y == c).sum() for c in classes], dtype=np.float64)
    return len(y) / (len(classes) * counts)                   # "balanced": float64 array

class DataSilo:
    def __init__(self, label_list, train_label_ids, batch_size=16):
        self.label_list = label_list
        self.train_label_ids = train_label_ids
        self.batch_size = batch_size

    def calculate_class_weights(self, task_name):
        label_list = self.label_list
        observed_labels = [label_list[i] for i in self.train_label_ids]
        class_weights = list(compute_class_weight("balanced", np.asarray(label_list), observed_labels))
        return class_weights

class TextClassificationHead(nn.Module):
    def __init__(self, layer_dims=None, num_labels=None, class_weights=None, task_name="text_classification"):
        super().__init__()
        self.feed_forward = nn.Linear(layer_dims[0], num_labels)
        self.num_labels = num_labels
        self.task_name = task_name
        self.class_weights = class_weights
        if class_weights is not None:
            balanced_weights = nn.Parameter(torch.tensor(class_weights), requires_grad=False)
        else:
            balanced_weights = None
        self.balanced_weights = balanced_weights
        self.loss_fct = CrossEntropyLoss(weight=balanced_weights, reduction="none")

    def forward(self, X):
        return self.feed_forward(X)

    def logits_to_loss(self, logits, label_ids, **kwargs):
        return self.loss_fct(logits, label_ids.view(-1))

class AdaptiveModel(nn.Module):
    def __init__(self, language_model, prediction_heads):
        super().__init__()
        self.language_model = language_model
        self.prediction_heads = nn.ModuleList(prediction_heads)

    def forward(self, input_ids):
        pooled = self.language_model(input_ids).mean(1)
        return [head(pooled) for head in self.prediction_heads]

    def logits_to_loss(self, logits, **kwargs):
        return sum(head.logits_to_loss(logits=l, **kwargs).mean() for head, l in zip(self.prediction_heads, logits))

label_list = [str(i) for i in range(1, 18)]
rng = np.random.RandomState(42)
train_label_ids = list(rng.randint(0, len(label_list), size=400))
data_silo = DataSilo(label_list, train_label_ids, batch_size=16)
language_model = nn.Sequential(nn.Embedding(1000, 32), nn.Linear(32, 32))
prediction_head = TextClassificationHead(
    layer_dims=[32, len(label_list)],
    num_labels=len(label_list),
    class_weights=data_silo.calculate_class_weights(task_name="text_classification"),
)
model = AdaptiveModel(language_model=language_model, prediction_heads=[prediction_head])
batch = {"input_ids": torch.randint(0, 1000, (16, 64)), "label_ids": torch.randint(0, 17, (16, 1))}
'''
CELL = '''
logits = model.forward(batch["input_ids"])
per_sample_loss = model.logits_to_loss(logits=logits, label_ids=batch["label_ids"])
'''
EXPECT_ERROR = ("expected scalar type Float but found Double", "Double")
CULPRITS = ["data_silo"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('class_weights = list(compute_class_weight("balanced", np.asarray(label_list), observed_labels))',
                  'class_weights = compute_class_weight("balanced", np.asarray(label_list), observed_labels)\n'
                  '        class_weights = class_weights.astype(np.float32)')
CLEAN = False
