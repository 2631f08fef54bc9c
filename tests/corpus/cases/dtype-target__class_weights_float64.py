"""CrossEntropyLoss with class weights computed in float64 (numpy) for a float32 model.

Source: https://github.com/sebsk/CS224N-Project/pull/2
"RuntimeError: expected scalar type Float but found Double while initializing the
train_label_weight and Using that weight in CrossEntropyLoss function": the per-class weights were
built from numpy counts (float64) and given to CrossEntropyLoss(weight=...).
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

counts = np.array([900, 80, 20])
train_label_weight = torch.tensor(counts.sum() / (len(counts) * counts))
criterion = nn.CrossEntropyLoss(weight=train_label_weight)
logits = torch.randn(8, 3)
labels = torch.randint(0, 3, (8,))
'''
CELL = '''
loss = criterion(logits, labels)
'''
EXPECT_ERROR = "expected scalar type Float but found Double"
CULPRITS = ["criterion"]
FIX = "namespace"
REFERENCE_FIX = '''
criterion.weight = criterion.weight.float()
'''
REFERENCE_EDIT = None
CLEAN = False
