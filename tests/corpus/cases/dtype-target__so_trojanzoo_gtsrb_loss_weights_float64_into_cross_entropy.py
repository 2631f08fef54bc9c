"""trojanzoo on GTSRB: the per-class loss weights come out of NumPy as float64 and go into CrossEntropyLoss.

Source: https://github.com/ain-soph/trojanzoo/issues/72
"[GTSRB] Type error when loading loss weights": with the GTSRB dataset the model's criterion is built
with `weight=torch.as_tensor(loss_weights)` where the dataset's `loss_weights` is a float64 NumPy
array, and training failed with "expected scalar type Float but found Double". The reporter cast the
array to float32; the maintainer moved the cast to the conversion into a tensor (models.py L182).
Stand-in: a minimal dataset computing class-balancing weights with NumPy and the model wrapper that
defines its CrossEntropyLoss from them; a small CNN replaces the trojanzoo backbone.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class GTSRB:
    num_classes = 43
    def __init__(self):
        self.targets = np.random.randint(0, self.num_classes, 500)
        self.loss_weights = self.get_loss_weights()
    def get_loss_weights(self):
        counts = np.bincount(self.targets, minlength=self.num_classes) + 1
        return counts.sum() / (counts * self.num_classes)          # float64 ndarray

class Model:
    def __init__(self, dataset, loss_weights=None):
        self._model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                                    nn.Flatten(), nn.Linear(8, dataset.num_classes))
        if loss_weights is None:
            loss_weights = dataset.loss_weights
        self.loss_weights = loss_weights
        self.criterion = self.define_criterion(weight=torch.as_tensor(loss_weights))

    def define_criterion(self, weight=None, **kwargs):
        return nn.CrossEntropyLoss(weight=weight, **kwargs)

    def __call__(self, _input):
        return self._model(_input)

    def loss(self, _input, _label):
        return self.criterion(self(_input), _label)

dataset = GTSRB()
model = Model(dataset)
_input = torch.rand(16, 3, 32, 32)
_label = torch.randint(0, 43, (16,))
'''
CELL = '''
loss = model.loss(_input, _label)
'''
EXPECT_ERROR = ("expected scalar type Float but found Double",
                "expected scalar type Double but found Float")
CULPRITS = ["model.criterion"]
FIX = "namespace"
REFERENCE_FIX = '''
model.criterion.weight = model.criterion.weight.float()
'''
REFERENCE_EDIT = None
CLEAN = False
