"""Class-imbalance weights given to CrossEntropyLoss as a LongTensor: the loss refuses them with class-index targets.

Source: https://github.com/pytorch/pytorch/issues/101213
"`torch.nn.CrossEntropyLoss` requires type `float` weights when used with targets as class indices":
the reporter built the loss for an imbalanced problem with integer weights,
`loss = nn.CrossEntropyLoss(weight=torch.LongTensor([1, 2, 3]))`, and calling it on float logits
and long class indices raised the "rather mysterious" "expected scalar type Float but found Long"
(the PR that followed documents that `weight` must be floating point). Stand-in: the report's
snippet inside a small training step for a 3-class classifier.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 3))
loss = nn.CrossEntropyLoss(weight=torch.LongTensor([1, 2, 3]))     # rarer classes weigh more
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
features = torch.randn(8, 10)
target = torch.empty(8, dtype=torch.long).random_(3)
'''
CELL = '''
input = model(features)
output = loss(input, target)
output.backward()
optimizer.step()
'''
EXPECT_ERROR = ("expected scalar type Float but found Long",
                "expected scalar type Long but found Float")
CULPRITS = ["loss"]
FIX = "namespace"
REFERENCE_FIX = '''
loss.weight = loss.weight.float()
'''
REFERENCE_EDIT = None
CLEAN = False
